import { LRUCache } from 'lru-cache';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { ThreadsReadModel } from '../../threads/queries/threads.read-model';

/**
 * Where an agent run stands in this instance's executor, one word for each run it knows:
 *
 *     free ──take──▶ claimed ──start──▶ running ──finish──▶ settled
 *       ▲               │ │
 *       └───giveBack────┘ └──pass / leave──▶ settled
 *
 * - `free`: the run waits here for a slot, first in, first out. Nothing is claimed yet.
 * - `claimed`: it holds a slot, and its claim is being recorded: its own `AgentRunStarted`, or the commit that queues
 *   it with the claim (a run queued here while a slot was free). Such a run may execute meanwhile, ahead of that
 *   commit: its own appends wait for it.
 * - `running`: its claim is recorded, and it executes here. Its slot goes to the next run once the model is done
 *   with it; it is running until its end is recorded.
 * - `settled`: this executor is done with it.
 *
 * A claim begins `free` (`offer`: brought by the log, or queued here without a claim) or `claimed` (`reserve`: a
 * slot kept for a run about to be queued here, whose queueing carries the claim).
 */
export type ClaimState = 'free' | 'claimed' | 'running' | 'settled';

/** The transitions, each from the one state it leaves. */
const TRANSITIONS = {
  /** A slot is free and the run is the first that may go: its claim is being recorded. */
  take: { from: 'free', to: 'claimed' },
  /** The claim is recorded, and it is ours: the run executes here (or goes on executing, if it started ahead). */
  start: { from: 'claimed', to: 'running' },
  /** The claim finds the run not to execute: another instance's, cancelled, ended, or not recorded at all. */
  pass: { from: 'claimed', to: 'settled' },
  /** The claim may not be recorded: the run waits again, first in line, and its next claim reads its stream. */
  giveBack: { from: 'claimed', to: 'free' },
  /** As `giveBack` while the service stops: the run is left to the log, which brings it again after a restart. */
  leave: { from: 'claimed', to: 'settled' },
  /** Its execution here is over. */
  finish: { from: 'running', to: 'settled' },
} as const satisfies Record<string, { from: ClaimState; to: ClaimState }>;

export type ClaimTransition = keyof typeof TRANSITIONS;

/** The state a transition leads to from `state`, or undefined when it is refused. */
export function nextState(state: ClaimState, transition: ClaimTransition): ClaimState | undefined {
  const { from, to } = TRANSITIONS[transition];
  return from === state ? to : undefined;
}

/** What the executor knows of a run when it offers it a claim. */
export interface ClaimDetails {
  runId: string;
  /** Its thread's runs execute one at a time, in the order of their queueing (`position` in the log). */
  threadId?: string;
  position: bigint;
  /** The trace of the request that queued the run (or decided its approvals): the run's span continues it. */
  traceparent?: string;
  /** The run's stream as its queueing left it, when known: the claim appends on it without reading the stream. */
  queued?: { run: AgentRunAggregate; revision: bigint };
}

/** One run's claim. Its state changes only through `RunClaims`, which keeps the executor's lists in step. */
export class RunClaim implements ClaimDetails {
  readonly runId: string;
  readonly threadId?: string;
  position: bigint;
  traceparent?: string;
  queued?: { run: AgentRunAggregate; revision: bigint };
  private current: ClaimState;
  /** Whether it counts against `RUN_CONCURRENCY`: from `take` (or `reserve`) until the model is done with it. */
  holdsSlot = false;
  /** Its queueing failed or its outcome is unknown: a claim that finds no run does not pass its queueing over. */
  queueingInDoubt = false;
  /** Its execution here, once it executes: a cancel or the shutdown stops it while it holds its slot. */
  execution?: { readonly controller: AbortController };
  /** The log's checkpoint waits below the events that brought the run until its claim is answered. */
  readonly checkpointHolds: Array<() => void> = [];

  constructor(details: ClaimDetails, state: 'free' | 'claimed') {
    this.runId = details.runId;
    this.threadId = details.threadId;
    this.position = details.position;
    this.traceparent = details.traceparent;
    this.queued = details.queued;
    this.current = state;
  }

  get state(): ClaimState {
    return this.current;
  }

  /** Makes the transition; a refused one is a mistake of the executor's, and throws. */
  move(transition: ClaimTransition): void {
    const next = nextState(this.current, transition);
    if (!next) throw new Error(`Run ${this.runId}: "${transition}" is refused while its claim is ${this.current}`);
    this.current = next;
  }
}

/** Runs whose claim the log answered here lately: the log may still bring their queueing (a local hand-off). */
const ANSWERED_KEPT = 10_000;

/**
 * The claims of the runs an executor knows, one per run, with the lists their states make: the free ones in the
 * order they take slots, the ones holding slots, and the runs whose claim was answered lately.
 */
export class RunClaims {
  private readonly queue: RunClaim[] = [];
  /** Every claim not settled, by run. */
  private readonly byRun = new Map<string, RunClaim>();
  private readonly slots = new Set<RunClaim>();
  private readonly answered = new LRUCache<string, true>({ max: ANSWERED_KEPT });

  /** The run's claim, unless it has settled. */
  of(runId: string): RunClaim | undefined {
    return this.byRun.get(runId);
  }

  /** Whether the log answered the run's claim here lately (ours or not), so that its queueing is passed over. */
  answeredLately(runId: string): boolean {
    return this.answered.has(runId);
  }

  /** Whether the run has a claim here, or had one answered lately: a run handed over here is claimed once. */
  knows(runId: string): boolean {
    return this.byRun.has(runId) || this.answered.has(runId);
  }

  /** How many slots are held (claimed runs, and running ones until the model is done with them). */
  get slotsHeld(): number {
    return this.slots.size;
  }

  /** How many runs wait for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** The claims holding a slot. */
  holdingSlots(): Iterable<RunClaim> {
    return this.slots;
  }

  /** Whether a run of a thread waits: its turn may come when the read models move on. */
  threadRunWaits(): boolean {
    return this.queue.some((claim) => claim.threadId);
  }

  /** A run to claim, last in line; `hold` lets the checkpoint pass the event that brought it. */
  offer(details: ClaimDetails, hold?: () => void): RunClaim {
    const claim = this.begin(new RunClaim(details, 'free'));
    if (hold) claim.checkpointHolds.push(hold);
    this.queue.push(claim);
    return claim;
  }

  /** A slot kept for a run about to be queued here with its claim. */
  reserve(runId: string): RunClaim {
    const claim = this.begin(new RunClaim({ runId, position: 0n }, 'claimed'));
    this.holdSlot(claim);
    return claim;
  }

  /** The log brought the run again while its claim is unanswered: the checkpoint waits below this event too. */
  holdCheckpoint(claim: RunClaim, hold: () => void): void {
    if (claim.state !== 'free' && claim.state !== 'claimed') throw new Error(`Run ${claim.runId} is ${claim.state}`);
    claim.checkpointHolds.push(hold);
  }

  /**
   * The first free claim that may go: one of no thread, or the next of a thread none of whose runs holds a slot,
   * once the read models show it (`appliedPosition`) and no earlier run of its thread open.
   */
  nextReady(appliedPosition: bigint, threads: Pick<ThreadsReadModel, 'hasOpenRunBefore'>): RunClaim | undefined {
    const busyThreads = new Set<string>();
    for (const claim of this.slots) if (claim.threadId) busyThreads.add(claim.threadId);
    return this.queue.find((claim) => {
      const { threadId } = claim;
      if (!threadId) return true;
      const ready =
        !busyThreads.has(threadId) &&
        // The read models have the run itself, so every run queued on the thread before it too.
        appliedPosition >= claim.position &&
        !threads.hasOpenRunBefore(threadId, claim.runId);
      busyThreads.add(threadId);
      return ready;
    });
  }

  take(claim: RunClaim): void {
    claim.move('take');
    this.queue.splice(this.queue.indexOf(claim), 1);
    this.holdSlot(claim);
  }

  start(claim: RunClaim): void {
    claim.move('start');
    this.answer(claim, true);
  }

  pass(claim: RunClaim): void {
    claim.move('pass');
    this.releaseSlot(claim);
    this.byRun.delete(claim.runId);
    // A queueing in doubt that the claim did not find may be written yet (a step's retry): it is not passed over.
    this.answer(claim, !claim.queueingInDoubt);
  }

  giveBack(claim: RunClaim): void {
    claim.move('giveBack');
    this.releaseSlot(claim);
    claim.queued = undefined;
    this.queue.unshift(claim);
  }

  /** Its checkpoint holds stay: the log's checkpoint stays below the run. */
  leave(claim: RunClaim): void {
    claim.move('leave');
    this.releaseSlot(claim);
    this.byRun.delete(claim.runId);
  }

  finish(claim: RunClaim): void {
    claim.move('finish');
    this.releaseSlot(claim);
    this.byRun.delete(claim.runId);
  }

  /** The commit that queues the run with its claim failed, or its outcome is unknown. */
  doubt(claim: RunClaim): void {
    if (claim.state !== 'claimed') throw new Error(`Run ${claim.runId}: its claim is ${claim.state}, not claimed`);
    claim.queueingInDoubt = true;
  }

  /** The model is done with the run (or it stops): its slot goes to the next run. Once. */
  releaseSlot(claim: RunClaim): void {
    claim.holdsSlot = false;
    this.slots.delete(claim);
  }

  private begin(claim: RunClaim): RunClaim {
    if (this.byRun.has(claim.runId)) throw new Error(`Run ${claim.runId} has a claim here already`);
    this.byRun.set(claim.runId, claim);
    return claim;
  }

  private holdSlot(claim: RunClaim): void {
    claim.holdsSlot = true;
    this.slots.add(claim);
  }

  /** The log has answered the claim: its checkpoint holds go, and its later queueings are passed over if `final`. */
  private answer(claim: RunClaim, final: boolean): void {
    if (final) this.answered.set(claim.runId, true);
    for (const release of claim.checkpointHolds.splice(0)) release();
  }
}
