import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Actor } from '../../actors/actor';
import { ActorRegistry } from '../../actors/actor-registry';
import { Agent, agentDecider, agentStream } from '../../agents/agent';
import { agentNamedBy } from '../../agents/agent-tool';
import { agentRunDecider, runQueuedBy } from '../../agents/agent-run/agent-run';
import { AgentRunCommand, EndChildRun } from '../../agents/agent-run/agent-run.commands';
import {
  AGENT_RUN_ENDINGS,
  AgentRunEndedData,
  AgentRunEvent,
  agentRunStream,
} from '../../agents/agent-run/agent-run.events';
import { AgentRunAggregate, AgentRunState, ChildRunRequest } from '../../agents/agent-run/agent-run.state';
import { resumesWhenEnded } from '../../agents/agent-run/decide';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/decider';
import type { Usage } from '../../domain/run';
import { IdGenerator } from '../../shared/ids';
import type { ChildRunCall } from '../agent-loop/tool-set';
import { LocalSlot, RunsQueuedHere } from '../agent-runs/runs-queued-here';
import { ChildrenQueueing, ParentOf, childContext, queueingOf, startsChildren } from './child-queueing';

/** How many recent trees' steps done here the agent-tree manager can pass over (more are done again, harmlessly). */
const DONE_HERE_KEPT = 10_000;

/** How many waiting parents' actors are kept, so that their children's ends are told without reading their streams. */
const PARENTS_KEPT = 1_000;

/** The endings of a run that its parent is told of. */
export type RunEnding = Extract<AgentRunEvent, { type: (typeof AGENT_RUN_ENDINGS)[number] }>;

export function isRunEnding(event: { type: string }): event is RunEnding {
  return (AGENT_RUN_ENDINGS as readonly string[]).includes(event.type);
}

/**
 * The runs that runs start by calling other agents (children). A parent records the children it waits for, and
 * they are queued in that commit where the store can (else just after it); a child's end is told to its parent, whose last child to end resumes it; a parent that ends
 * first cancels its children. Each is done at once by the instance that sees it first, and again from the log by
 * the agent-tree manager (after a crash, on any instance): every step is idempotent, so each happens once.
 */
@Injectable()
export class ChildRuns {
  private readonly logger = new Logger(ChildRuns.name);
  /** The actors of parents waiting here lately for their children, as their waits left them. */
  private readonly parents = new LRUCache<string, Actor<AgentRunState, AgentRunCommand, AgentRunEvent>>({
    max: PARENTS_KEPT,
  });
  /** What was done here lately at once (children queued, ends told), as it is being done: true once it was. */
  private readonly doneHere = new LRUCache<string, Promise<boolean>>({ max: DONE_HERE_KEPT });

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
  async queue(parent: ParentOf, children: ChildRunRequest[]): Promise<void> {
    await Promise.all(children.map((child) => this.queueOne(parent, child)));
  }

  /**
   * The queueing of the children a parent is about to record that it waits for, to go in that same commit where
   * the store can write several streams at once: each child of an active agent, with its claim when a slot of the
   * local executor is free. Then no other instance can find the parent waiting for a child not queued yet.
   */
  async prepare(parent: ParentOf, children: ChildRunRequest[]): Promise<ChildrenQueueing> {
    const agents = this.actors.commitsSeveralStreams
      ? await Promise.all(children.map((child) => this.activeAgentOf(child)))
      : [];
    const ready = children.flatMap((child, i) => {
      const agent = agents[i];
      return agent ? [{ child, agent, slot: this.queuedHere.reserve(child.runId, agent) }] : [];
    });
    let settle!: (done: boolean) => void;
    this.doneHere.set(`started ${parent.id}`, new Promise<boolean>((resolve) => (settle = resolve)));
    const letGo = () => ready.forEach(({ slot }) => slot?.notRecorded());
    return {
      opens: (events) => {
        if (!events.some(startsChildren)) return [];
        return ready.map(({ child, agent, slot }) => ({
          stream: agentRunStream(child.runId),
          decider: agentRunDecider,
          command: queueingOf(parent, child, agent, slot?.start),
        }));
      },
      startAhead: () => {
        for (const { child, agent, slot } of ready) {
          if (!slot) continue;
          const decided = (start: LocalSlot['start']) =>
            runQueuedBy(queueingOf(parent, child, agent, start), new Date());
          this.queuedHere.startAhead(slot, { id: child.runId, agent, traceparent: child.traceparent, decided });
        }
      },
      notRecorded: () => {
        letGo();
        settle(false);
      },
      recorded: async ({ state, revision, events, opened }) => {
        let done = false;
        if (revision !== undefined) {
          const actor = this.actors.of(agentRunStream(parent.id), agentRunDecider);
          actor.adopt(state, revision);
          this.parents.set(parent.id, actor);
        }
        try {
          // A cancel asked for meanwhile ended the run instead: it started no children.
          if (!events.some(startsChildren)) return letGo();
          // Not written with the parent's commit (EventStoreDB, or a child's stream there after all): one by one.
          if (!opened || opened.length !== ready.length) {
            letGo();
            await this.queue(parent, children);
          } else {
            ready.forEach(({ child, agent, slot }, i) => {
              const { state, events: written, position } = opened[i];
              const run = {
                run: state as AgentRunAggregate,
                revision: BigInt(written.length - 1),
                position: position!,
              };
              this.queuedHere.handOver(slot, { ...run, traceparent: child.traceparent, agent });
            });
            // The children of agents gone since the model saw them are told so.
            const withAgent = new Set(ready.map(({ child }) => child));
            await this.queue(
              parent,
              children.filter((child) => !withAgent.has(child)),
            );
          }
          done = true;
        } finally {
          settle(done);
        }
      },
    };
  }

  private async queueOne(parent: ParentOf, child: ChildRunRequest): Promise<void> {
    const agent = await this.activeAgentOf(child);
    if (!agent) return this.agentGone(parent, child);
    const { runId: id, traceparent } = child;
    const context = childContext(parent, traceparent);
    // With a free slot the child is queued and claimed in one commit. Queued apart from its parent's wait, it does
    // not start before that commit is in: the agent-tree manager of another instance, which has seen the wait, may
    // queue the same child meanwhile (its model call would then be made twice).
    await this.queuedHere.queue({ id, agent, traceparent, mayStart: true }, (start) =>
      this.actors.send(agentRunStream(id), agentRunDecider, queueingOf(parent, child, agent, start), context, {
        newStream: true,
      }),
    );
  }

  /** The child's agent, unless it is gone or archived. */
  private async activeAgentOf(child: ChildRunRequest): Promise<Agent | undefined> {
    const agent = await this.actors.of(agentStream(child.agentId), agentDecider).read();
    return agent && agent.status !== 'archived' ? agent : undefined;
  }

  /** A child of an agent gone or archived since the model saw it: the call's result is that error. */
  private async agentGone(parent: ParentOf, child: ChildRunRequest): Promise<void> {
    const agent = await this.actors.of(agentStream(child.agentId), agentDecider).read();
    const message = `The agent "${child.agent}" (${child.agentId}) is ${agent ? 'archived' : 'gone'}`;
    return this.tellParent(parent.id, child.runId, { error: { code: 'agent_not_found', message } }, null);
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
    const { runId } = ending.data;
    const told = this.ended(ending).then(
      () => true,
      (error: unknown) => {
        this.logger.warn(`The end of run ${runId} is left to the log: ${String(error)}`);
        return false;
      },
    );
    this.doneHere.set(`ended ${runId}`, told);
  }

  /**
   * Whether this instance has done what the event asks (the end of run `runId` told, or the children it started
   * queued), waiting for that work while it is in flight: the agent-tree manager then need not do it again.
   */
  async handledHere(event: { type: string; data: { runId?: unknown } }): Promise<boolean> {
    return (
      (await this.doneHere.get(`${isRunEnding(event) ? 'ended' : 'started'} ${String(event.data.runId)}`)) ?? false
    );
  }

  private async tellParent(
    parentRunId: string,
    childRunId: string,
    outcome: EndChildRun['outcome'],
    usage: Usage | null,
  ): Promise<void> {
    const context = { correlationId: parentRunId, causationId: childRunId };
    // The parent's actor as its wait left it, when that was here: it decides without reading the stream first
    // (should the stream have moved on, the append conflicts and it reads and decides again).
    const actor = this.parents.get(parentRunId) ?? this.actors.of(agentRunStream(parentRunId), agentRunDecider);
    const parent = actor.peek()?.state ?? (await actor.read());
    // The last child to end resumes its parent: with a free slot here, it is claimed in the same commit.
    const resuming = parent && resumesWhenEnded(parent, childRunId) ? await this.resumingSlot(parent) : undefined;
    const slot = resuming?.slot;
    const command: EndChildRun = {
      type: 'EndChildRun',
      childRunId,
      outcome,
      usage,
      ...(slot && { start: slot.start }),
    };
    let told: Awaited<ReturnType<typeof actor.send>>;
    try {
      told = await actor.send(command, context);
    } catch (error) {
      slot?.notRecorded();
      throw error;
    }
    // Resumed, it goes to the local executor at once (claimed if it had a slot), as a run queued here does.
    const { state, revision, position, events } = told;
    const claimed = events.some((event) => event.type === 'AgentRunStarted');
    const resumed = state && (claimed || state.status === 'queued') && revision !== undefined && position !== undefined;
    if (!resumed) return slot?.notRecorded();
    if (claimed) return this.queuedHere.handOver(slot, { run: state, revision, position, resumed: true, ...resuming! });
    this.queuedHere.queued({ run: state, revision, position, resumed: true });
  }

  /** A slot of the local executor for the parent to go on in, with its agent, when one is free. */
  private async resumingSlot(parent: AgentRunAggregate): Promise<{ slot: LocalSlot; agent: Agent } | undefined> {
    const agent = await this.actors.of(agentStream(parent.agentId), agentDecider).read();
    const slot = agent ? this.queuedHere.reserve(parent.id, agent, true) : undefined;
    return slot && agent ? { slot, agent } : undefined;
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
