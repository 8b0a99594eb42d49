import type { Logger } from '@nestjs/common';
import type { ModelMessage } from 'ai';
import type { ActorRegistry } from '../../actors/actor-registry';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { ModelAttempt } from '../../domain/run';
import type { ModelProviders } from '../../models/model-providers';
import { ModelRunError } from '../../models/model-run-error';
import type { ThreadsReadModel } from '../../threads/queries/threads.read-model';
import { ThreadMessage, threadDecider, threadStream } from '../../threads/thread';

type AgentLoopModule = typeof import('../agent-loop/agent-loop');

export interface SummaryDeps {
  actors: ActorRegistry;
  threads: ThreadsReadModel;
  providers: ModelProviders;
  logger: Logger;
}

/** What the model is asked to be when it writes a thread's summary. */
const SUMMARIZER =
  'You keep the running summary of a conversation. Fold the new messages into the summary: keep every fact, ' +
  'name, number, decision and open question that may matter later; drop greetings and repetition. Answer with the ' +
  'summary alone, in plain sentences.';

/** A summary is kept to this length. */
const SUMMARY_CHARS = 100_000;

const NO_OBSERVER = { delta: () => undefined, toolCalled: async () => undefined, toolReturned: async () => undefined };

/** One message as the summarizer reads it. */
function line(message: ThreadMessage): string {
  if (message.toolCalls?.length) return `assistant called ${message.toolCalls.map((call) => call.tool).join(', ')}`;
  return `${message.role}: ${message.content}`;
}

/**
 * On a thread of an agent with `memory.summarize`: the running summary of the messages before the window (the
 * `windowLength` last ones), as a system message before them. The messages that have fallen out of the window since
 * the summary last folded any in are folded in first, by the agent's own model, and the new summary is recorded on
 * the thread (`ThreadSummarized`) before the run goes on, so the next turn reads it. Should the model fail, the run
 * goes on with the summary as it was. The summarizer's tokens are counted to the run (`attempts`).
 */
export async function threadSummary(
  run: AgentRunAggregate,
  agent: Agent,
  windowLength: number,
  deps: SummaryDeps,
  loop: AgentLoopModule,
  signal: AbortSignal,
  attempts: ModelAttempt[],
): Promise<ModelMessage[]> {
  const threadId = run.threadId;
  if (!agent.memory.summarize || !threadId) return [];
  const start = deps.threads.messageCount(threadId) - windowLength;
  const { summary, throughSeq } = deps.threads.summaryOf(threadId);
  let current = summary;
  if (start - 1 > throughSeq) {
    const fold = deps.threads.messagesBetween(threadId, throughSeq, start);
    const task = `The summary so far:\n${current ?? '(none yet)'}\n\nThe new messages:\n${fold.map(line).join('\n')}`;
    try {
      const request = { model: agent.model, fallbackModels: agent.fallbackModels, instructions: SUMMARIZER, task };
      const done = await loop.runAgentLoop(
        { ...request, context: {}, tools: [], maxSteps: 1, signal, streams: () => false },
        NO_OBSERVER,
        deps.providers,
      );
      attempts.push(...done.modelAttempts);
      current = done.output.slice(0, SUMMARY_CHARS);
      const command = {
        type: 'SummarizeThread' as const,
        threadId,
        summary: current,
        throughSeq: start - 1,
        runId: run.id,
      };
      await deps.actors.send(threadStream(threadId), threadDecider, command, {
        correlationId: run.id,
        causationId: run.id,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof ModelRunError) attempts.push(...error.modelAttempts);
      deps.logger.warn(`The summary of thread ${threadId} was not brought up to date: ${String(error)}`);
    }
  }
  if (!current) return [];
  return [{ role: 'system', content: `A summary of the conversation before the messages below:\n${current}` }];
}
