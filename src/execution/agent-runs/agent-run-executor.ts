import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { AgentRunApprovalsDecided, AgentRunQueued } from '../../agents/agent-run/agent-run.events';
import { LocalSlot, RunQueuedHere, RunsQueuedHere } from './runs-queued-here';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { RunFeed } from '../../live/run-feed';
import { logAiSdkWarningsTo } from '../../models/ai-sdk-warnings';
import { ModelPrices } from '../../models/model-prices';
import { ModelProviders } from '../../models/model-providers';
import { configuredSecrets } from '../../shared/redaction';
import { AppliedEvents } from '../../read-models/applied-events';
import { RunTools } from '../agent-tree/run-tools';
import { ChildRuns } from '../agent-tree/child-runs';
import { AgentRunExecution } from './agent-run-execution';
import { claimOf } from './run-claim-of';
import { RunCancelled, RunInterrupted } from './run-outcome';
import { runAttributes } from './agent-run-span';
import { ClaimDetails, RunClaim, RunClaims } from './run-claim';
import { ThreadsReadModel } from '../../threads/queries/threads.read-model';
import { MemorySearch } from '../../memory/queries/memory-search';
import { MemoryReadModel } from '../../memory/queries/memory.read-model';
import { Clock } from '../../shared/clock';
import { contextOf, inAsyncScope, inSpan, keepContentOut } from '../../shared/trace-context';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';

/** Queued runs held in memory at most; past it the subscription waits, so a backlog costs no memory. */
const MAX_WAITING = 10_000;
/**
 * The checkpoint is written at most this often (the latest position then): a restart reads again at most this much
 * of the log, whose runs it finds started or ended, rather than one write of the read database per run.
 */
const CHECKPOINT_EVERY_MS = 1000;

/**
 * The process manager that executes agent runs. It follows `AgentRunQueued` from its own checkpoint, keeps the
 * runs first in, first out, and executes at most `RUN_CONCURRENCY` at once. A run is claimed by appending its
 * start with the expected revision, so however many instances follow the store, each run executes once. The
 * checkpoint never passes a run not yet claimed, so after a restart the queued runs are taken up again. A run on a
 * thread waits, without holding a slot, until every run queued on the thread before it has settled (the threads
 * read model shows it, on any instance), so each run sees the exchanges of those before it.
 */
@Injectable()
export class AgentRunExecutor extends ProcessManager {
  protected readonly name = 'agent-run-executor';
  // A run is queued once, and again each time a person's decisions, or the end of its last child, let it go on.
  protected override readonly follows = {
    filter: { eventTypes: ['AgentRunQueued', 'AgentRunApprovalsDecided', 'AgentRunChildRunEnded'] },
  };
  readonly executorId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  /** Each run this executor knows, by where its claim stands: free, claimed, running (run-claim.ts). */
  private readonly claims = new RunClaims();
  /** The claims and executions in flight, which the shutdown waits for. */
  private readonly inFlight = new Set<Promise<void>>();
  private roomWaiter?: () => void;
  private readonly providers: ModelProviders;
  private readonly prices: ModelPrices;
  protected override readonly checkpointEveryMs = CHECKPOINT_EVERY_MS;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly tools: RunTools,
    private readonly childRuns: ChildRuns,
    private readonly feed: RunFeed,
    private readonly runs: AgentsReadModel,
    private readonly applied: AppliedEvents,
    private readonly threads: ThreadsReadModel,
    private readonly queuedHere: RunsQueuedHere,
    private readonly memory: MemoryReadModel,
    private readonly memorySearch: MemorySearch,
    private readonly clock: Clock,
  ) {
    super(deps, config.runs.executorEnabled);
    this.providers = new ModelProviders(config.providers, undefined, configuredSecrets(config));
    this.prices = new ModelPrices(config.prices);
    logAiSdkWarningsTo(new Logger('Models'));
  }

  protected override begin(): void {
    this.applied.onApplied((events) => {
      this.cancelAsked(events);
      // A thread's earlier run may have settled: its next run may go.
      if (this.claims.threadRunWaits()) this.pump();
    });
    this.queuedHere.takeWith({
      take: (queued) => this.handedOver(queued),
      slot: (runId, agent, resumed) => this.slot(runId, agent, resumed),
    });
  }

  protected override stopTakingWork(): void {
    this.roomWaiter?.();
  }

  protected override async finishWork(): Promise<void> {
    // Runs in flight end as interrupted now, rather than when their lease runs out.
    for (const claim of this.claims.holdingSlots()) claim.execution?.controller.abort(new RunInterrupted());
    await Promise.allSettled([...this.inFlight]);
  }

  /** How many runs execute in this instance now, and how many wait. */
  get load(): { executing: number; waiting: number } {
    return { executing: this.claims.slotsHeld, waiting: this.claims.waiting };
  }

  /** Queued runs wait their turn; the checkpoint stays before each until its claim is answered. */
  protected override async handle(events: RecordedEvent[]): Promise<void> {
    for (const event of events) {
      const resumed = event.type !== 'AgentRunQueued';
      if (resumed && !(event.data as AgentRunApprovalsDecided['data']).resumed) continue;
      const runId = resumed ? (event.data.runId as string) : (event.data as AgentRunQueued['data']).id;
      // Known here already (handed over by this process, or brought by an earlier event of the log read again
      // after a restart): while its claim is unanswered (it reads the run's stream) the checkpoint waits for it; a
      // run running here needs nothing more.
      const here = this.claims.of(runId);
      if (here) {
        if (here.state !== 'running') this.claims.holdCheckpoint(here, this.hold(event));
        continue;
      }
      if (this.claims.answeredLately(runId) && !resumed) continue;
      // Runs the read models already show as started or ended need no claim (the read models may not show a
      // decision yet: the claim checks the run's stream).
      const known = this.runs.getRunAggregate(runId);
      if (known && known.status !== 'queued' && !(resumed && known.status === 'waiting')) continue;
      const threadId = resumed ? (known?.threadId ?? undefined) : (event.data as AgentRunQueued['data']).threadId;
      const { traceparent } = event.metadata;
      // A run just queued: its queueing is all its stream holds, unless the claim's append finds otherwise.
      const queued = !resumed && !known ? queuedBy(event) : undefined;
      this.claims.offer({ runId, threadId, position: event.position, traceparent, queued }, this.hold(event));
    }
    this.pump();
    if (this.claims.waiting >= MAX_WAITING && !this.stopping) {
      await new Promise<void>((resolve) => (this.roomWaiter = resolve));
    }
  }

  /** A run queued in this process: it waits its turn at once (the log brings its queueing later). */
  private handedOver({ run, revision, position, traceparent, resumed }: RunQueuedHere): void {
    // A run handed over here is claimed once; one queued again after it waited may have had a claim answered here.
    if (this.stopping || this.claims.of(run.id) || (!resumed && this.claims.knows(run.id))) return;
    // A backlog stays in the log, not in memory: the subscription brings the run once there is room.
    if (this.claims.waiting >= MAX_WAITING) return;
    const threadId = run.threadId ?? undefined;
    this.claims.offer({ runId: run.id, threadId, position, traceparent, queued: { run, revision } });
    this.pump();
  }

  /** Free runs take the free slots, in order. */
  private pump(): void {
    while (!this.stopping && this.claims.slotsHeld < this.config.runs.concurrency) {
      const next = this.nextReady();
      if (!next) break;
      this.claims.take(next);
      this.track(this.claimAndExecute(next));
    }
    if (this.claims.waiting < MAX_WAITING) {
      this.roomWaiter?.();
      this.roomWaiter = undefined;
    }
  }

  /** The first waiting run that may go: one of no thread, or the next of an idle thread. */
  private nextReady(): RunClaim | undefined {
    return this.claims.nextReady(this.applied.position, this.threads);
  }

  /** Work the shutdown waits for; once it is over, its slot may have gone to the next run. */
  private track(work: Promise<void>): void {
    const tracked = work.finally(() => {
      this.inFlight.delete(tracked);
      this.pump();
    });
    this.inFlight.add(tracked);
  }

  /**
   * A slot for a run about to be queued in this process, when one is free and no waiting run may take it: the
   * queueing carries the claim (one commit), and the run's claim is `claimed` until that commit answers. With
   * `startNow` the run executes at once, ahead of the commit (its appends wait for it). Should the log bring the run
   * first, the checkpoint waits below it. A run `resumed` after it waited (its claim here before was answered) is
   * claimed again so.
   */
  private slot(runId: string, agent: Agent, resumed = false): LocalSlot | undefined {
    if (this.stopping || this.claims.of(runId) || (!resumed && this.claims.knows(runId))) return undefined;
    if (this.claims.slotsHeld >= this.config.runs.concurrency) return undefined;
    if (this.claims.waiting && this.nextReady()) return undefined;
    const claim = this.claims.reserve(runId);
    let workOver!: () => void;
    this.track(new Promise<void>((resolve) => (workOver = resolve)));
    // The commit answers once; a second answer changes nothing.
    let answered = false;
    /** Set for a run executing ahead of the commit: it is told the commit's outcome. */
    let tellOutcome: ((started?: { run: AgentRunAggregate; revision: bigint }) => void) | undefined;
    return {
      start: claimOf(agent, this.executorId, this.tools),
      startNow: (run, agent, traceparent) => {
        if (answered || tellOutcome) return;
        claim.traceparent = traceparent;
        const execution = this.newExecution(claim);
        execution.startingHere(new Promise((resolve) => (tellOutcome = resolve)));
        void this.executeHere(claim, execution, run, agent).then(workOver);
      },
      started: ({ run, revision, position, traceparent, agent }) => {
        if (answered) return;
        answered = true;
        Object.assign(claim, { position, traceparent });
        this.claims.start(claim);
        if (tellOutcome) return tellOutcome({ run, revision });
        const execution = this.newExecution(claim);
        execution.startedHere(run, revision);
        void this.executeHere(claim, execution, run, agent).finally(workOver);
      },
      notRecorded: () => {
        if (answered) return;
        answered = true;
        this.claims.doubt(claim);
        // Executing ahead: it stops unrecorded, and is given back once it has stopped (see `execute`).
        if (tellOutcome) return tellOutcome();
        this.giveBack(claim);
        workOver();
      },
    };
  }

  /** Claims a run taken from the queue, and executes it if the claim is ours. */
  private async claimAndExecute(claim: RunClaim): Promise<void> {
    const execution = this.newExecution(claim);
    let claimed: Awaited<ReturnType<AgentRunExecution['claim']>>;
    try {
      // In another instance, or after a restart, all the same: the run belongs to the trace that queued it.
      claimed = await inAsyncScope(contextOf(claim.traceparent), () => execution.claim(claim.queued));
    } catch (error) {
      // The store is away: try again shortly, reading the run's stream then (the claim may have been written).
      this.logger.warn(`Could not claim run ${claim.runId} yet: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      this.giveBack(claim);
      return;
    }
    if (!claimed) return this.claims.pass(claim);
    this.claims.start(claim);
    await this.execute(claim, execution, claimed);
  }

  /** The run waits again at the head of the queue, or, while the service stops, is left to the log. */
  private giveBack(claim: RunClaim): void {
    if (this.stopping) this.claims.leave(claim);
    else this.claims.giveBack(claim);
  }

  private newExecution(claim: RunClaim): AgentRunExecution {
    return new AgentRunExecution(claim.runId, claim.threadId, {
      actors: this.actors,
      agents: this.runs,
      threads: this.threads,
      memory: this.memory,
      memorySearch: this.memorySearch,
      clock: this.clock,
      tools: this.tools,
      childRuns: this.childRuns,
      maxHandoffs: this.config.runs.maxHandoffs,
      streaming: this.config.runs.streaming,
      providers: this.providers,
      prices: this.prices,
      feed: this.feed,
      logger: this.logger,
      executorId: this.executorId,
      timeoutMs: this.config.runs.timeoutMs,
      leaseMs: this.config.runs.leaseMs,
      stopping: () => this.stopping,
    });
  }

  /** A run queued here with its claim: its failure is logged here, since no one waits for it. */
  private executeHere(claim: RunClaim, execution: AgentRunExecution, run: AgentRunAggregate, agent: Agent) {
    return this.execute(claim, execution, { run, agent }).catch((error: unknown) =>
      this.logger.error(`Run ${claim.runId} failed here: ${String(error)}`),
    );
  }

  /**
   * Executes a run whose claim is ours (or is being recorded with its queueing), in a slot that goes to the next run
   * once its model calls are done; the claim is settled once the execution is over.
   */
  private async execute(
    claim: RunClaim,
    execution: AgentRunExecution,
    { run, agent }: { run: AgentRunAggregate; agent: Agent | null },
  ): Promise<void> {
    claim.execution = execution;
    const modelDone = () => {
      if (!claim.holdsSlot) return;
      this.claims.releaseSlot(claim);
      this.pump();
    };
    try {
      // A shutdown, or a cancel, that came while the run was being claimed found nothing to abort yet.
      if (this.stopping) execution.controller.abort(new RunInterrupted());
      else if (this.runs.getRunAggregate(claim.runId)?.cancelRequested) execution.controller.abort(new RunCancelled());
      const parent = contextOf(claim.traceparent);
      // In an async scope: the AI SDK's spans, and the run's appends, follow the run's context through its awaits.
      await inAsyncScope(parent, () =>
        inSpan(
          `invoke_agent ${agent?.name ?? run.agentId}`,
          runAttributes(run, agent),
          () => {
            if (this.aboutSubject(run)) keepContentOut();
            return execution.execute(run, agent, modelDone);
          },
          { parent },
        ),
      );
    } finally {
      modelDone();
      if (claim.state === 'running') this.claims.finish(claim);
      // Started ahead of a queueing that was not recorded: given back only now, so two never run side by side here.
      else if (claim.queueingInDoubt) this.giveBack(claim);
    }
  }

  /** Whether the run is about a subject: its context names one, or its thread is one's. */
  private aboutSubject(run: AgentRunAggregate): boolean {
    const named = (run.context as Record<string, unknown> | undefined)?.subjectId;
    return typeof named === 'string' || Boolean(run.threadId && this.threads.get(run.threadId)?.subjectId);
  }

  /** A cancel asked for through any instance aborts the run where it executes. */
  private cancelAsked(events: RecordedEvent[]): void {
    if (this.claims.slotsHeld === 0) return;
    for (const event of events) {
      if (event.type !== 'AgentRunCancelRequested') continue;
      const claim = this.claims.of(event.data.runId as string);
      if (claim?.holdsSlot) claim.execution?.controller.abort(new RunCancelled());
    }
  }
}

/** The run as its `AgentRunQueued` leaves a new stream (the event's revision is the stream's). */
function queuedBy(event: RecordedEvent): ClaimDetails['queued'] {
  const run = agentRunDecider.evolve(agentRunDecider.initialState, event as unknown as AgentRunQueued);
  return run ? { run, revision: event.revision } : undefined;
}
