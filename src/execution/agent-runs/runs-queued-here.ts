import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../domain/decider';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { StartAgentRun } from '../../agents/agent-run/agent-run.commands';

/** A run this process has just queued, as its queueing command left it. */
export interface RunQueuedHere {
  run: AgentRunAggregate;
  /** The run stream's revision after its queueing (the claim appends expecting it). */
  revision: bigint;
  /** The log position of its `AgentRunQueued` (or of the event that queued it again). */
  position: bigint;
  traceparent?: string;
  /** Queued again after it waited (its last child ended): a claim of it here before was answered, this is a new one. */
  resumed?: boolean;
}

/**
 * A slot of the local executor, held for a run about to be queued here: the run is queued and claimed (started)
 * in one commit, on its new stream, so no other instance can claim it.
 */
export interface LocalSlot {
  /** The claim to record with the queueing. */
  readonly start: Omit<StartAgentRun, 'type'>;
  /**
   * The run as its queueing decides it, that commit still in flight: it executes now, and its own appends wait for
   * the commit (and are never made without it: not recorded, it stops). A new stream: no other instance claims it.
   */
  startNow(run: AgentRunAggregate, agent: Agent, traceparent?: string): void;
  /** Queued and started in that one commit: the run executes here. */
  started(started: RunQueuedHere & { agent: Agent }): void;
  /** Not recorded, or its outcome unknown: the slot is let go, and the executor reads the run's stream to see. */
  notRecorded(): void;
}

/** What a run's queueing append answered: the run, the events written (none if queued before) and their position. */
interface Queueing {
  state?: AgentRunAggregate | null;
  events: readonly unknown[];
  position?: bigint;
}

/** A run about to be queued in this process. */
export interface RunToQueue {
  id: string;
  agent: Agent;
  traceparent?: string;
  /** It may take a free slot of the local executor (a thread's runs wait their turn). */
  mayStart: boolean;
  /** The run as its queueing with the claim `start` leaves its stream (the decider's answer, not yet recorded). */
  decided?: (start: LocalSlot['start']) => AgentRunAggregate | null;
}

/** The local executor's side of the hand-off. */
export interface LocalTaker {
  /** A run queued without a claim: it waits its turn. */
  take(queued: RunQueuedHere): void;
  /**
   * A slot for a run of this agent, when one is free and no run waits for it; undefined otherwise. A run `resumed`
   * after it waited may have had a claim answered here.
   */
  slot(runId: string, agent: Agent, resumed: boolean): LocalSlot | undefined;
}

/**
 * Runs queued in this process go straight to the local executor, without waiting for its subscription to
 * bring their `AgentRunQueued` back. The executor still claims each run through the log, so a run that another
 * instance claims first is not executed here. When the executor has a free slot, the queueing carries the claim.
 */
@Injectable()
export class RunsQueuedHere {
  private readonly logger = new Logger(RunsQueuedHere.name);
  private taker?: LocalTaker;

  /** The local executor takes the runs queued from now on (one taker). */
  takeWith(taker: LocalTaker): void {
    this.taker = taker;
  }

  /** Never throws: the run is recorded, and the log brings it to an executor should the hand-off fail. */
  queued(queued: RunQueuedHere): void {
    try {
      this.taker?.take(queued);
    } catch (error) {
      this.logger.warn(`Run ${queued.run.id} is left to the log: ${String(error)}`);
    }
  }

  /**
   * Queues a run: `append` records its queueing, carrying the claim (`start`) when the local executor has a free
   * slot and `mayStart` (one commit), and the run is handed to the executor, to execute at once if claimed, to wait
   * its turn if not. With `decided` (the run as the queueing with that claim leaves it), a claimed run starts while
   * the commit is being made. A failed append lets the slot go and throws.
   */
  async queue<Q extends Queueing>(run: RunToQueue, append: (start?: LocalSlot['start']) => Promise<Q>): Promise<Q> {
    const { id, agent, traceparent } = run;
    const slot = run.mayStart ? this.reserve(id, agent) : undefined;
    // Handed to the writer first: the run's start below overlaps that commit.
    const appended = (async () => append(slot?.start))();
    if (slot) this.startAhead(slot, run);
    let queued: Q;
    try {
      queued = await appended;
    } catch (error) {
      slot?.notRecorded();
      throw error;
    }
    const { state, position } = queued;
    // Queued before (a step's retry, a restart): nothing was written now, and the executor reads the stream to see.
    const written = state && position !== undefined;
    const revision = BigInt(queued.events.length - 1);
    this.handOver(slot, written ? { run: state, revision, position, traceparent, agent } : undefined);
    return queued;
  }

  /**
   * A free slot of the local executor for a run about to be queued here (its queueing carries `start`), or
   * undefined: queue it without a claim. A run `resumed` after it waited may have had a claim answered here before.
   * Never throws.
   */
  reserve(runId: string, agent: Agent, resumed = false): LocalSlot | undefined {
    try {
      return this.taker?.slot(runId, agent, resumed);
    } catch (error) {
      this.logger.warn(`Run ${runId} is queued without a claim: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * The queueing of a run (and, with `slot`, its claim) has answered: `queued` is the run as it left its stream, or
   * undefined when nothing was written now (queued before, or refused). Claimed, it executes here; unclaimed, it
   * waits its turn; not written, the slot is let go and the executor reads the run's stream to see. Never throws.
   */
  handOver(slot: LocalSlot | undefined, queued: (RunQueuedHere & { agent: Agent }) | undefined): void {
    if (!queued) slot?.notRecorded();
    else if (slot) slot.started(queued);
    else this.queued(queued);
  }

  /** The run starts while its queueing is being committed, if it can be decided here (`decided`). Never throws. */
  startAhead(slot: LocalSlot, { id, agent, traceparent, decided }: Omit<RunToQueue, 'mayStart'>): void {
    if (!decided) return;
    try {
      const run = decided(slot.start);
      if (run) slot.startNow(run, agent, traceparent);
    } catch (error) {
      // A command the decider refuses is refused again by the append, which answers the client.
      if (!(error instanceof DomainError)) this.logger.warn(`Run ${id} starts once recorded: ${String(error)}`);
    }
  }
}
