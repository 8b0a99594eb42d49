import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentDecider, agentStream } from '../../agents/agent';
import { agentNamedBy } from '../../agents/agent-tool';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { EndChildRun, QueueAgentRun } from '../../agents/agent-run/agent-run.commands';
import {
  AGENT_RUN_ENDINGS,
  AgentRunEndedData,
  AgentRunEvent,
  agentRunStream,
} from '../../agents/agent-run/agent-run.events';
import { ChildRunRequest } from '../../agents/agent-run/agent-run.state';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/decider';
import type { Usage } from '../../domain/run';
import { IdGenerator } from '../../shared/ids';
import { contextOf } from '../../shared/trace-context';
import type { ChildRunCall } from '../agent-loop/tool-set';
import { LocalSlot, RunsQueuedHere } from '../agent-runs/runs-queued-here';

/** The endings of a run that its parent is told of. */
export type RunEnding = Extract<AgentRunEvent, { type: (typeof AGENT_RUN_ENDINGS)[number] }>;

export function isRunEnding(event: { type: string }): event is RunEnding {
  return (AGENT_RUN_ENDINGS as readonly string[]).includes(event.type);
}

/**
 * The runs that runs start by calling other agents (children). A parent records the children it waits for, then
 * queues them here; a child's end is told to its parent, whose last child to end resumes it; a parent that ends
 * first cancels its children. Each is done at once by the instance that sees it first, and again from the log by
 * the agent-tree manager (after a crash, on any instance): every step is idempotent, so each happens once.
 */
@Injectable()
export class ChildRuns {
  private readonly logger = new Logger(ChildRuns.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly queuedHere: RunsQueuedHere,
  ) {}

  /** Why a run this deep may not start children (`RUN_MAX_DEPTH`), as the model is told; undefined: it may. */
  refusalAt(depth: number): string | undefined {
    const max = this.config.runs.maxDepth;
    if (depth < max) return undefined;
    return `depth_exceeded: runs may call other agents at most ${max} levels deep (RUN_MAX_DEPTH); answer without this agent`;
  }

  /** The children the calls start, each with its run's id. */
  requests(calls: ChildRunCall[]): ChildRunRequest[] {
    return calls.map(({ toolCallId, tool, agentId, input, traceparent }) => ({
      runId: this.ids.newId('agentrun'),
      agentId,
      agent: agentNamedBy(tool) ?? tool,
      toolCallId,
      task: input.task,
      context: input.context ?? {},
      ...(traceparent && { traceparent }),
    }));
  }

  /** Queues each child of `parent` (a child queued before is left as it is). Throws when the store is away. */
  async queue(parent: { id: string; depth: number }, children: ChildRunRequest[]): Promise<void> {
    await Promise.all(children.map((child) => this.queueOne(parent, child)));
  }

  private async queueOne(parent: { id: string; depth: number }, child: ChildRunRequest): Promise<void> {
    const agent = await this.actors.of(agentStream(child.agentId), agentDecider).read();
    if (!agent || agent.status === 'archived') {
      const message = `The agent "${child.agent}" (${child.agentId}) is ${agent ? 'archived' : 'gone'}`;
      return this.tellParent(parent.id, child.runId, { error: { code: 'agent_not_found', message } }, null);
    }
    const { runId: id, traceparent } = child;
    const context = { correlationId: parent.id, causationId: parent.id, trace: contextOf(traceparent) };
    const queueing = (start?: LocalSlot['start']): QueueAgentRun => ({
      type: 'QueueAgentRun',
      id,
      agentId: agent.id,
      model: agent.model,
      agentVersion: agent.version,
      task: child.task,
      context: child.context,
      parentRunId: parent.id,
      parentToolCallId: child.toolCallId,
      depth: parent.depth + 1,
      ...(start && { start }),
      inputChecks: agent.guardrails?.input,
    });
    // With a free slot the child is queued and claimed in one commit; it does not start before that commit is in,
    // since the agent-tree manager of another instance may queue the same child meanwhile (its model call would
    // then be made twice).
    await this.queuedHere.queue({ id, agent, traceparent, mayStart: true }, (start) =>
      this.actors.send(agentRunStream(id), agentRunDecider, queueing(start), context, { newStream: true }),
    );
  }

  /** A run ended: its parent, if it has one, is told; its children still open, if it has any, are cancelled. */
  async ended(ending: RunEnding): Promise<void> {
    const data: AgentRunEndedData = ending.data;
    const work: Array<Promise<void>> = [];
    const usage = data.totalUsage ?? data.usage;
    if (data.parentRunId) work.push(this.tellParent(data.parentRunId, data.runId, outcomeOf(ending), usage));
    for (const childRunId of data.openChildren ?? []) work.push(this.cancel(data.runId, childRunId));
    await Promise.all(work);
  }

  /**
   * The same for the events an end of a run recorded here, where no one waits for it: a failure is left to the
   * agent-tree manager, which reads the log.
   */
  endedHere(events: readonly AgentRunEvent[]): void {
    const ending = events.find(isRunEnding);
    if (!ending || (!ending.data.parentRunId && !ending.data.openChildren?.length)) return;
    this.ended(ending).catch((error: unknown) =>
      this.logger.warn(`The end of run ${ending.data.runId} is left to the log: ${String(error)}`),
    );
  }

  private async tellParent(
    parentRunId: string,
    childRunId: string,
    outcome: EndChildRun['outcome'],
    usage: Usage | null,
  ): Promise<void> {
    const command: EndChildRun = { type: 'EndChildRun', childRunId, outcome, usage };
    const context = { correlationId: parentRunId, causationId: childRunId };
    const told = await this.actors.send(agentRunStream(parentRunId), agentRunDecider, command, context);
    // The last child resumed the parent: it goes to the local executor at once, as a run queued here does.
    const { state, revision, position } = told;
    if (state?.status === 'queued' && revision !== undefined && position !== undefined) {
      this.queuedHere.queued({ run: state, revision, position, resumed: true });
    }
  }

  private async cancel(parentRunId: string, childRunId: string): Promise<void> {
    const context = { correlationId: parentRunId, causationId: parentRunId };
    try {
      await this.actors.send(agentRunStream(childRunId), agentRunDecider, { type: 'CancelAgentRun' }, context);
    } catch (error) {
      // Ended meanwhile (or never queued): nothing is left to cancel.
      if (!(error instanceof DomainError)) throw error;
    }
  }
}

function outcomeOf(ending: RunEnding): EndChildRun['outcome'] {
  if (ending.type === 'AgentRunSucceeded') {
    const { output, outputObject } = ending.data;
    return { output, ...(outputObject !== undefined && { outputObject }) };
  }
  if (ending.type === 'AgentRunFailed') return { error: ending.data.error };
  return { cancelled: true };
}
