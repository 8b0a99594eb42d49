import { Inject, Injectable } from '@nestjs/common';
import { inAsyncScope, inSpan } from '../../shared/trace-context';
import { Command, CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { DomainError } from '../../domain/decider';
import { RecordedEvent } from '../../event-store/event-store';
import { AppliedEvents } from '../../read-models/applied-events';
import { Clock } from '../../shared/clock';
import { WorkflowRunOpener } from '../trigger-workflow/workflow-run-opener';
import { workflowStream } from '../workflow/workflow.events';
import { CronSchedule, cronSchedule } from './cron-schedule';
import { DueTicks, DueTicksAt, LATE_TICK_GRACE_MS, dueTicks } from './due-ticks';
import { PreparedTicks } from './prepared-ticks';
import { SkipScheduledRunsCommand } from './skip-scheduled-runs.command';
import { ScheduledWorkflow, WorkflowSchedules } from './workflow-schedules';
import { ScheduledTick, TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';

interface ScheduledWorkflowJob {
  schedule: CronSchedule;
  /** The latest tick this instance has handled; the next due one comes after it. */
  handledUntil: Date;
}

const STREAM_PREFIX = workflowStream('');
/** Events that record ticks: they never change which workflows are scheduled. */
const TICK_EVENTS = new Set(['WorkflowTriggered', 'ScheduledRunsSkipped']);
/**
 * Jobs of different schedules due at one instant fire over a few milliseconds (their timers are armed at slightly
 * different times). Those firing within this delay of the first are handled together, so their triggers are
 * decided and committed together rather than in waves, each waiting behind the previous wave's commit.
 */
export const GATHER_MS = 5;
/** Closer to its tick than this, no round of preparation starts: it might not be ready, and would be in the way. */
const PREPARE_AT_LEAST_MS = 500;
/** A round for workflows that changed within the time ahead of their tick waits this long for more changes. */
const PREPARE_SETTLE_MS = 200;

/** The name of a schedule's job in the SchedulerRegistry. */
export function scheduleJobName(cron: string, timezone: string): string {
  return `schedule:${cron} ${timezone}`;
}

/**
 * One `CronJob` per schedule (cron and time zone) that active workflows use, shared by those workflows, built
 * from the read model once it has caught up with the log and kept in step with it. The ticks due when jobs fire
 * become one command; each workflow's decider accepts a tick once, so any number of instances may schedule the
 * same workflows.
 */
@Injectable()
export class WorkflowScheduler extends ProcessManager {
  protected readonly name = 'workflow-scheduler';
  private readonly jobs = new Map<string, ScheduledWorkflowJob>();
  /** The workflows of each schedule that has a job. */
  private readonly workflowsOf = new Map<CronSchedule, Set<string>>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Schedules whose job has fired and whose workflows' ticks are about to be handled. */
  private fired = new Set<CronSchedule>();
  private gathering?: NodeJS.Timeout;
  private preparation?: { timer: NodeJS.Timeout; at: number };

  constructor(
    deps: ProcessManagerDeps,
    private readonly registry: SchedulerRegistry,
    private readonly commands: CommandBus,
    private readonly schedules: WorkflowSchedules,
    private readonly applied: AppliedEvents,
    private readonly runs: WorkflowRunOpener,
    private readonly preparedTicks: PreparedTicks,
    private readonly clock: Clock,
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'schedulerEnabled' | 'scheduleCatchUpWindowMs' | 'schedulePrepareAheadMs'>,
  ) {
    super(deps, config.schedulerEnabled);
  }

  /**
   * The ticks missed while the service was down are sent now but not awaited: the start does not wait for them.
   */
  protected override begin(): void {
    // Listening and reading the read model in one synchronous step: no batch can fall between the two.
    this.applied.onApplied((events) => this.onBatchApplied(events));
    const due: ScheduledTick[] = [];
    for (const workflow of this.schedules.active()) {
      this.guarded(workflow.id, () => this.add(workflow, this.config.scheduleCatchUpWindowMs, due));
    }
    this.sendRuns(due);
    this.logger.log(`Scheduling ${this.jobs.size} workflows on ${this.workflowsOf.size} schedules`);
    this.planPreparation();
  }

  protected override stopTakingWork(): void {
    clearTimeout(this.gathering);
    clearTimeout(this.preparation?.timer);
    for (const workflowId of [...this.jobs.keys()]) this.remove(workflowId);
  }

  protected override async finishWork(): Promise<void> {
    await this.settled();
  }

  /** How late a tick may run while the service is up: the catch-up window, but never less than the grace. */
  private get runningWindowMs(): number {
    return Math.max(this.config.scheduleCatchUpWindowMs, LATE_TICK_GRACE_MS);
  }

  /** How many workflows are scheduled. */
  get size(): number {
    return this.jobs.size;
  }

  isScheduled(workflowId: string): boolean {
    return this.jobs.has(workflowId);
  }

  /** Resolves once every command sent for a tick so far has been answered and its run's stream opened. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight);
    await this.runs.settled();
  }

  private onBatchApplied(events: RecordedEvent[]): void {
    if (this.stopping) return;
    const touched = new Set<string>();
    for (const { stream, type } of events) {
      if (stream.startsWith(STREAM_PREFIX) && !TICK_EVENTS.has(type)) touched.add(stream.slice(STREAM_PREFIX.length));
    }
    for (const workflowId of touched) {
      this.preparedTicks.forget(workflowId);
      this.guarded(workflowId, () => this.reconcile(workflowId));
    }
    if (touched.size) this.planPreparation(PREPARE_SETTLE_MS);
  }

  /** One workflow's schedule failing must stop neither the others nor the projections that call us. */
  private guarded(workflowId: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.cannotSchedule(workflowId, error);
    }
  }

  private cannotSchedule(workflowId: string, error: unknown): void {
    this.logger.error(`Cannot schedule workflow ${workflowId}: ${String(error)}`);
  }

  /** Brings one workflow's job in line with the read model: created, paused, resumed, or later changed. */
  private reconcile(workflowId: string): void {
    const workflow = this.schedules.of(workflowId);
    const wanted = workflow?.status === 'active' && workflow.trigger.type === 'schedule' ? workflow : undefined;
    const job = this.jobs.get(workflowId);
    if (job && wanted?.trigger.type === 'schedule') {
      if (job.schedule === cronSchedule(wanted.trigger.cron, wanted.trigger.timezone)) return;
    }
    if (job) this.remove(workflowId);
    if (wanted) {
      const due: ScheduledTick[] = [];
      this.add(wanted, this.runningWindowMs, due);
      this.sendRuns(due);
    }
  }

  /** Schedules the workflow (starting its schedule's job if it has none yet); its due tick goes to `due`. */
  private add({ id, trigger, dueAfter }: ScheduledWorkflow, windowMs: number, due: ScheduledTick[]): void {
    if (trigger.type !== 'schedule') return;
    const schedule = cronSchedule(trigger.cron, trigger.timezone);
    const job = { schedule, handledUntil: new Date(dueAfter) };
    let workflows = this.workflowsOf.get(schedule);
    if (!workflows) {
      const cronJob = new CronJob(trigger.cron, () => this.tick(schedule), null, false, trigger.timezone);
      cronJob.cronTime = schedule.cronTime();
      this.registry.addCronJob(scheduleJobName(trigger.cron, trigger.timezone), cronJob);
      cronJob.start();
      workflows = new Set();
      this.workflowsOf.set(schedule, workflows);
    }
    workflows.add(id);
    this.jobs.set(id, job);
    this.handleDue(id, job, windowMs, due);
    // Scheduled within the time a round of its next tick would have been prepared: another round, soon.
    const now = +this.clock.now();
    if (+schedule.nextAfter(now) - now <= this.config.schedulePrepareAheadMs) this.planPreparation(PREPARE_SETTLE_MS);
  }

  /** Unschedules the workflow; its schedule's job stops with the last workflow on it. */
  private remove(workflowId: string): void {
    const job = this.jobs.get(workflowId);
    if (!job) return;
    this.jobs.delete(workflowId);
    const workflows = this.workflowsOf.get(job.schedule)!;
    workflows.delete(workflowId);
    if (workflows.size) return;
    this.workflowsOf.delete(job.schedule);
    const name = scheduleJobName(job.schedule.cron, job.schedule.timezone);
    if (this.registry.doesExist('cron', name)) this.registry.deleteCronJob(name);
  }

  private tick(schedule: CronSchedule): void {
    if (this.stopping) return;
    this.fired.add(schedule);
    this.gathering ??= setTimeout(() => this.handleFired(), GATHER_MS);
  }

  private handleFired(): void {
    const fired = this.fired;
    this.fired = new Set();
    this.gathering = undefined;
    // One instant for the whole pass: the workflows of a schedule then share their due ticks' computation.
    const dueAt = new DueTicksAt(this.clock.now(), this.runningWindowMs);
    const due: ScheduledTick[] = [];
    for (const schedule of fired) {
      for (const workflowId of this.workflowsOf.get(schedule) ?? []) {
        const job = this.jobs.get(workflowId)!;
        try {
          this.handleTicks(workflowId, job, dueAt.of(job.schedule, job.handledUntil), due);
        } catch (error) {
          this.cannotSchedule(workflowId, error);
        }
      }
    }
    this.sendRuns(due);
    this.planPreparation();
  }

  /**
   * Plans the next round of preparing ticks: SCHEDULE_PREPARE_AHEAD_MS before the next instant a job fires, or
   * `soonMs` from now when that is later (workflows changed within it). A round planned no later is kept.
   */
  private planPreparation(soonMs = 0): void {
    const now = +this.clock.now();
    const ahead = this.config.schedulePrepareAheadMs;
    if (this.stopping || !ahead || !this.workflowsOf.size) return;
    if (this.preparation && this.preparation.at <= now + soonMs) return;
    const at = now + Math.max(this.nextInstant(now) - ahead - now, soonMs);
    if (this.preparation && this.preparation.at <= at) return;
    clearTimeout(this.preparation?.timer);
    const timer = setTimeout(() => {
      this.preparation = undefined;
      void this.prepareNext();
    }, at - now);
    this.preparation = { timer, at };
  }

  /** The earliest instant after `now` at which a job fires. */
  private nextInstant(now: number): number {
    let next = Infinity;
    for (const schedule of this.workflowsOf.keys()) next = Math.min(next, +schedule.nextAfter(now));
    return next;
  }

  /**
   * A round: the ticks due at the next instant that are not prepared yet, decided and encoded now (PreparedTicks).
   * Only a workflow whose one tick then is on time is prepared; one that would skip ticks is decided at the tick.
   */
  private async prepareNext(): Promise<void> {
    const now = this.clock.now();
    const at = new Date(this.nextInstant(+now));
    if (this.stopping || +at - +now < PREPARE_AT_LEAST_MS) return;
    const dueAt = new DueTicksAt(at, this.runningWindowMs);
    const due: ScheduledTick[] = [];
    for (const [schedule, workflows] of this.workflowsOf) {
      if (+schedule.nextAfter(now) !== +at) continue;
      for (const workflowId of workflows) {
        if (this.preparedTicks.has(workflowId, at)) continue;
        const ticks = dueAt.of(schedule, this.jobs.get(workflowId)!.handledUntil);
        if (!ticks.skip && ticks.run && +ticks.run === +at) due.push({ workflowId, scheduledFor: at });
      }
    }
    if (!due.length) return;
    await this.preparedTicks.prepare(due, at).catch((error: unknown) => {
      this.logger.warn(`Cannot prepare the ticks of ${at.toISOString()}: ${String(error)}`);
    });
  }

  /**
   * `scheduledFor` is the cron occurrence itself, worked out from the last tick handled and the clock, never
   * the moment the timer fired: a late timer still names its tick, and ticks it overslept are skipped. A tick
   * to run alone goes to `due`; one after skipped ticks is sent after them.
   */
  private handleDue(workflowId: string, job: ScheduledWorkflowJob, windowMs: number, due: ScheduledTick[]): void {
    this.handleTicks(workflowId, job, dueTicks(job.schedule, job.handledUntil, this.clock.now(), windowMs), due);
  }

  private handleTicks(workflowId: string, job: ScheduledWorkflowJob, ticks: DueTicks, due: ScheduledTick[]): void {
    job.handledUntil = ticks.handledUntil;
    if (ticks.skip) this.track(this.skipThenRun(workflowId, ticks));
    else if (ticks.run) due.push({ workflowId, scheduledFor: ticks.run });
  }

  /** The ticks' runs, as one command: they are recorded side by side, in few commits. */
  private sendRuns(due: ScheduledTick[]): void {
    if (due.length) this.track(this.send(new TriggerScheduledRunsCommand(due)));
  }

  private track(sent: Promise<void>): void {
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /** Skipped ticks first: the decider accepts ticks in time order only. */
  private async skipThenRun(workflowId: string, { skip, run }: DueTicks): Promise<void> {
    await this.send(new SkipScheduledRunsCommand(workflowId, skip!.first, skip!.last, skip!.count));
    if (run) await this.send(new TriggerScheduledRunsCommand([{ workflowId, scheduledFor: run }]));
  }

  /** A tick starts a trace of its own: its runs belong to it. */
  private send(command: Command<unknown>): Promise<void> {
    const tick = { 'app.command': command.constructor.name };
    // In an async scope: the tick's commands, appends and the runs it queues follow its span through their awaits.
    return inAsyncScope(undefined, () =>
      inSpan('scheduled tick', tick, () => this.commands.execute(command), { root: true }),
    ).then(
      () => undefined,
      (error: unknown) => {
        // Another instance recorded the tick first, or the workflow was paused meanwhile: expected, not a fault.
        if (error instanceof DomainError) this.logger.debug(`${command.constructor.name}: ${error.message}`);
        else this.logger.warn(`${command.constructor.name} failed: ${String(error)}`);
      },
    );
  }
}
