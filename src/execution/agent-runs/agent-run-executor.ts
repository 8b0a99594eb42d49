import { hostname } from 'node:os';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
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
import { ToolRegistry } from '../../tools/tool-registry';
import { AgentRunExecution, RunCancelled, RunInterrupted, claimOf } from './agent-run-execution';
import { Waiting, nextReadyIndex, queuedBy, runAttributes } from './agent-run-entries';
import { CHECKPOINT_EVERY_MS, MAX_WAITING, TAKEN_KEPT } from './agent-run-entries';
import { ThreadsReadModel } from '../../threads/queries/threads.read-model';
import { contextOf, inAsyncScope, inSpan } from '../../shared/trace-context';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';

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
  // A run is queued once, and again each time a person's decisions let it go on.
  protected override readonly follows = { filter: { eventTypes: ['AgentRunQueued', 'AgentRunApprovalsDecided'] } };
  readonly executorId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly waiting: Waiting[] = [];
  /** Runs taken from `waiting` whose claim has not settled yet. */
  private readonly claiming = new Set<Waiting>();
  private readonly executing = new Map<string, AgentRunExecution>();
  private roomWaiter?: () => void;
  private readonly running = new Set<Promise<void>>();
  private readonly providers: ModelProviders;
  private readonly prices: ModelPrices;
  /** The runs waiting or being claimed, by id: a run handed over here and brought by the log is taken once. */
  private readonly pending = new Map<string, Waiting>();
  private readonly taken = new LRUCache<string, true>({ max: TAKEN_KEPT });
  /**
   * Runs executing here from their claim until their end is recorded (`executing` lets go once the model is done): a
   * second claim of one finds it running for this executor, and must not execute it again.
   */
  private readonly inHand = new Set<string>();
  protected override readonly checkpointEveryMs = CHECKPOINT_EVERY_MS;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly tools: ToolRegistry,
    private readonly feed: RunFeed,
    private readonly runs: AgentsReadModel,
    private readonly applied: AppliedEvents,
    private readonly threads: ThreadsReadModel,
    private readonly queuedHere: RunsQueuedHere,
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
      if (this.waiting.some((entry) => entry.threadId)) this.pump();
    });
    this.queuedHere.takeWith({
      take: (queued) => this.handedOver(queued),
      slot: (runId, agent) => this.slot(runId, agent),
    });
  }

  protected override stopTakingWork(): void {
    this.roomWaiter?.();
  }

  protected override async finishWork(): Promise<void> {
    // Runs in flight end as interrupted now, rather than when their lease runs out.
    for (const execution of this.executing.values()) execution.controller.abort(new RunInterrupted());
    await Promise.allSettled([...this.running]);
  }

  /** How many runs execute in this instance now, and how many wait. */
  get load(): { executing: number; waiting: number } {
    return { executing: this.executing.size + this.claiming.size, waiting: this.waiting.length };
  }

  /** Queued runs wait their turn; the checkpoint stays before each until its claim has settled. */
  protected override async handle(events: RecordedEvent[]): Promise<void> {
    for (const event of events) {
      const resumed = event.type === 'AgentRunApprovalsDecided';
      if (resumed && !(event.data as AgentRunApprovalsDecided['data']).resumed) continue;
      const runId = resumed ? (event.data.runId as string) : (event.data as AgentRunQueued['data']).id;
      // Waiting or being claimed here already (handed over by this process, or brought by an earlier event of the
      // log read again after a restart): that claim reads the run's stream, so the checkpoint waits for it.
      const handed = this.pending.get(runId);
      if (handed) {
        const { claimed } = handed;
        const hold = this.hold(event);
        handed.claimed = () => (claimed(), hold());
        continue;
      }
      if (this.taken.has(runId) && !resumed) continue;
      // Runs the read models already show as started or ended need no claim (the read models may not show a
      // decision yet: the claim checks the run's stream).
      const known = this.runs.getRunAggregate(runId);
      if (known && known.status !== 'queued' && !(resumed && known.status === 'waiting')) continue;
      const threadId = resumed ? (known?.threadId ?? undefined) : (event.data as AgentRunQueued['data']).threadId;
      const { traceparent } = event.metadata;
      // A run just queued: its queueing is all its stream holds, unless the claim's append finds otherwise.
      const queued = !resumed && !known ? queuedBy(event) : undefined;
      this.offer({ runId, threadId, position: event.position, traceparent, queued, claimed: this.hold(event) });
    }
    this.pump();
    if (this.waiting.length >= MAX_WAITING && !this.stopping) {
      await new Promise<void>((resolve) => (this.roomWaiter = resolve));
    }
  }

  /** A run queued in this process: it waits its turn at once (the log brings its queueing later). */
  private handedOver({ run, revision, position, traceparent }: RunQueuedHere): void {
    if (this.stopping || this.pending.has(run.id) || this.taken.has(run.id)) return;
    // A backlog stays in the log, not in memory: the subscription brings the run once there is room.
    if (this.waiting.length >= MAX_WAITING) return;
    const threadId = run.threadId ?? undefined;
    this.offer({ runId: run.id, threadId, position, traceparent, queued: { run, revision }, claimed: () => undefined });
    this.pump();
  }

  private offer(entry: Waiting): void {
    this.pending.set(entry.runId, entry);
    this.waiting.push(entry);
  }

  private pump(): void {
    while (!this.stopping && this.executing.size + this.claiming.size < this.config.runs.concurrency) {
      const index = this.nextReady();
      if (index < 0) break;
      const [next] = this.waiting.splice(index, 1);
      this.claiming.add(next);
      const work = this.take(next).finally(() => {
        this.running.delete(work);
        this.pump();
      });
      this.running.add(work);
    }
    if (this.waiting.length < MAX_WAITING) {
      this.roomWaiter?.();
      this.roomWaiter = undefined;
    }
  }

  /** The first waiting run that may go: one of no thread, or the next of an idle thread. */
  private nextReady(): number {
    const busy = [...this.claiming, ...this.executing.values()];
    return nextReadyIndex(this.waiting, busy, this.applied.position, this.threads);
  }

  /**
   * A slot for a run about to be queued in this process, when one is free and no waiting run may take it: the
   * queueing carries the claim (one commit). The run counts as being claimed until it executes: at once when
   * `startNow` is given it (its appends wait for that commit), else once the commit is in. Should the log bring it
   * first, the checkpoint waits below it.
   */
  private slot(runId: string, agent: Agent): LocalSlot | undefined {
    if (this.stopping || this.pending.has(runId) || this.taken.has(runId)) return undefined;
    if (this.executing.size + this.claiming.size >= this.config.runs.concurrency) return undefined;
    if (this.waiting.length && this.nextReady() >= 0) return undefined;
    const entry: Waiting = { runId, position: 0n, claimed: () => undefined };
    this.pending.set(runId, entry);
    this.claiming.add(entry);
    let done!: () => void;
    const work = new Promise<void>((resolve) => (done = resolve)).finally(() => {
      this.running.delete(work);
      this.pump();
    });
    this.running.add(work);
    let settled = false;
    /** Started before its queueing was in: the commit's outcome goes to it. */
    let ahead: { recorded(started?: { run: AgentRunAggregate; revision: bigint }): void } | undefined;
    const executeHere = (execution: AgentRunExecution, run: AgentRunAggregate, agent: Agent) =>
      this.execute(entry, execution, { run, agent }).catch((error: unknown) =>
        this.logger.error(`Run ${runId} failed here: ${String(error)}`),
      );
    // Its outcome may be unknown: the run waits at the head of the queue, and its claim reads its stream.
    const giveBack = () => {
      entry.unrecorded = true;
      if (this.stopping) this.pending.delete(runId);
      else this.waiting.unshift(entry);
    };
    return {
      start: claimOf(agent, this.executorId, this.tools),
      startNow: (run, agent, traceparent) => {
        if (settled || ahead) return;
        entry.traceparent = traceparent;
        const execution = this.newExecution(entry);
        execution.startingHere(new Promise((resolve) => (ahead = { recorded: resolve })));
        // Executing from now on (no longer counted as being claimed), its claim settling with the commit.
        this.claiming.delete(entry);
        void executeHere(execution, run, agent).then(() => {
          // Not recorded: given back once this execution is over, so that two never run side by side here.
          if (entry.unrecorded) giveBack();
          done();
        });
      },
      started: ({ run, revision, position, traceparent, agent }) => {
        if (settled) return;
        settled = true;
        Object.assign(entry, { position, traceparent });
        if (ahead) {
          ahead.recorded({ run, revision });
          this.claimSettled(entry);
          return;
        }
        const execution = this.newExecution(entry);
        execution.startedHere(run, revision);
        this.claimSettled(entry);
        void executeHere(execution, run, agent).finally(done);
      },
      notRecorded: () => {
        if (settled) return;
        settled = true;
        if (ahead) {
          entry.unrecorded = true;
          ahead.recorded();
          return;
        }
        this.claiming.delete(entry);
        giveBack();
        done();
      },
    };
  }

  private async take(entry: Waiting): Promise<void> {
    const execution = this.newExecution(entry);
    let claimed: Awaited<ReturnType<AgentRunExecution['claim']>>;
    try {
      // In another instance, or after a restart, all the same: the run belongs to the trace that queued it.
      claimed = await inAsyncScope(contextOf(entry.traceparent), () => execution.claim(entry.queued));
    } catch (error) {
      // The store is away: put the run back at the head of the queue and try again shortly, reading its stream
      // then (the claim may have been written).
      this.logger.warn(`Could not claim run ${entry.runId} yet: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      this.claiming.delete(entry);
      entry.queued = undefined;
      if (!this.stopping) this.waiting.unshift(entry);
      else this.pending.delete(entry.runId);
      return;
    }
    // A run given back unrecorded that its claim does not find may be written yet (a step's retry): not passed over.
    this.claimSettled(entry, !!claimed || !entry.unrecorded);
    if (claimed) await this.execute(entry, execution, claimed);
  }

  private newExecution(entry: Waiting): AgentRunExecution {
    return new AgentRunExecution(entry.runId, entry.threadId, {
      actors: this.actors,
      threads: this.threads,
      tools: this.tools,
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

  /** The run's claim has settled (ours or not); once `taken`, the log's copy of its queueing is passed over. */
  private claimSettled(entry: Waiting, taken = true): void {
    this.claiming.delete(entry);
    this.pending.delete(entry.runId);
    if (taken) this.taken.set(entry.runId, true);
    entry.claimed();
  }

  /** Executes a run claimed here, in a slot that goes to the next run once its model calls are done. */
  private async execute(
    entry: Waiting,
    execution: AgentRunExecution,
    { run, agent }: { run: AgentRunAggregate; agent: Agent | null },
  ): Promise<void> {
    if (this.inHand.has(entry.runId)) return;
    this.inHand.add(entry.runId);
    this.executing.set(entry.runId, execution);
    // The slot goes to the next run once the model is done with this one, while its end is being recorded.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.executing.delete(entry.runId);
      this.pump();
    };
    try {
      // A shutdown, or a cancel, that came while the run was being claimed found nothing to abort yet.
      if (this.stopping) execution.controller.abort(new RunInterrupted());
      else if (this.runs.getRunAggregate(entry.runId)?.cancelRequested) execution.controller.abort(new RunCancelled());
      const parent = contextOf(entry.traceparent);
      // In an async scope: the AI SDK's spans, and the run's appends, follow the run's context through its awaits.
      await inAsyncScope(parent, () =>
        inSpan(
          `invoke_agent ${agent?.name ?? run.agentId}`,
          runAttributes(run, agent),
          () => execution.execute(run, agent, release),
          { parent },
        ),
      );
    } finally {
      release();
      this.inHand.delete(entry.runId);
    }
  }

  /** A cancel asked for through any instance aborts the run where it executes. */
  private cancelAsked(events: RecordedEvent[]): void {
    if (this.executing.size === 0) return;
    for (const event of events) {
      if (event.type !== 'AgentRunCancelRequested') continue;
      this.executing.get(event.data.runId as string)?.controller.abort(new RunCancelled());
    }
  }
}
