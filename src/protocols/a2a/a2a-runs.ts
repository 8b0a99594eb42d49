import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { Agent } from '../../agents/agent';
import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { AgentRuns, RunTaskDto } from '../../agents/agent-runs.port';
import { CancelAgentRunCommand } from '../../agents/cancel-agent-run/cancel-agent-run.command';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { DomainError } from '../../domain/decider';
import { validateAs } from '../../http/validate-as';
import { RunFeed } from '../../live/run-feed';
import { StreamWatch } from '../../live/stream-watch';
import { ValidationFailed } from '../../shared/validation-failed';
import { CreateThreadCommand } from '../../threads/create-thread/create-thread.command';

/** A blocking send waits for its run to settle: runs end by RUN_TIMEOUT_MS, or come to wait for a person. */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;
const CANCEL_WAIT_MS = 10_000;

/** What a stream of a task hears next: text the model wrote, or the run as a newly applied event left it. */
export type RunUpdate = { kind: 'text'; text: string } | { kind: 'run'; run: AgentRun };

/** The A2A tasks' runs: started, waited for, cancelled and followed as the HTTP API's runs are. */
@Injectable()
export class A2aRuns {
  constructor(
    private readonly agentRuns: AgentRuns,
    private readonly commands: CommandBus,
    private readonly watch: StreamWatch,
    private readonly feed: RunFeed,
    private readonly agents: AgentsReadModel,
  ) {}

  get(agentId: string, runId: string): AgentRun | undefined {
    return this.agents.getRun(agentId, runId);
  }

  /** A run of the agent on the thread (a new one without), recorded with the thread as its A2A context. */
  async start(agent: Agent, task: string, context: Record<string, unknown>, threadId?: string): Promise<AgentRun> {
    try {
      const body = validateAs(RunTaskDto, { task, context });
      const thread = threadId ?? (await this.commands.execute(new CreateThreadCommand(agent.id, {}))).id;
      const source = { protocol: 'a2a' as const, contextId: thread };
      return await this.agentRuns.queue(body, () => ({ agentId: agent.id, threadId: thread, source }));
    } catch (error) {
      // A task too long, a thread of another agent or archived: the request's fault, said as A2A says it.
      if (error instanceof ValidationFailed)
        throw new RequestMalformedError(error.errors.map(({ path, message }) => `${path}: ${message}`).join('; '));
      if (error instanceof DomainError) throw new RequestMalformedError(error.message);
      throw error;
    }
  }

  /** The run once it has ended or waits for a person (or the service stops), its thread's turn recorded. */
  settled(run: AgentRun): Promise<AgentRun> {
    return this.agentRuns.settled(run, LONGEST_WAIT_MS);
  }

  async cancel(run: AgentRun): Promise<AgentRun> {
    await this.commands.execute(new CancelAgentRunCommand(run.agentId, run.id));
    const current = () => this.get(run.agentId, run.id) ?? run;
    return (await this.watch.runEnding(agentRunStream(run.id), current, CANCEL_WAIT_MS)).run;
  }

  /**
   * Follows a run from now on: `current()` is the run as the read models show it, `next()` the next update (text
   * as it is written, or the run after an event), `stop()` ends it. Subscribed before `current()` is read, so
   * nothing falls between the two. Once `signal` is aborted (the client went away, the service stops), `next()`
   * throws.
   */
  updates(agentId: string, runId: string, signal: AbortSignal) {
    const queued: RunUpdate[] = [];
    let wake: (() => void) | undefined;
    const push = (update: RunUpdate) => {
      queued.push(update);
      wake?.();
    };
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    const current = () => this.get(agentId, runId)!;
    const stopWatching = this.watch.watch(agentRunStream(runId), () => push({ kind: 'run', run: current() }));
    const following = this.feed.follow(runId, (text) => push({ kind: 'text', text }));
    if (following.soFar) queued.push({ kind: 'text', text: following.soFar });
    return {
      current,
      next: async (): Promise<RunUpdate> => {
        while (queued.length === 0) {
          signal.throwIfAborted();
          await new Promise<void>((resolve) => (wake = resolve));
        }
        return queued.shift()!;
      },
      stop: () => {
        signal.removeEventListener('abort', onAbort);
        stopWatching();
        following.stop();
      },
    };
  }
}
