import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Command, CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { APP_CONFIG, AppConfig } from '../../config';
import { DomainError } from '../../domain/decider';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { Clock } from '../../shared/clock';
import { ScheduledWorkflow, WorkflowsReadModel } from '../queries/workflows.read-model';
import { TriggerWorkflowCommand } from '../trigger-workflow/trigger-workflow.command';
import { WorkflowRunOpener } from '../trigger-workflow/workflow-run-opener';
import { workflowStream } from '../workflow';
import { CronSchedule, cronSchedule } from './cron-schedule';
import { DueTicks, LATE_TICK_GRACE_MS, dueTicks } from './due-ticks';
import { SkipScheduledRunsCommand } from './skip-scheduled-runs.command';

interface ScheduledJob {
  schedule: CronSchedule;
  /** The latest tick this instance has handled; the next due one comes after it. */
  handledUntil: Date;
}

const STREAM_PREFIX = workflowStream('');
/** Events that record ticks: they never change which workflows are scheduled. */
const TICK_EVENTS = new Set(['WorkflowTriggered', 'ScheduledRunsSkipped']);
/**
 * Jobs due at one instant fire over a few milliseconds (their timers are armed at slightly different times). Those
 * firing within this delay of the first are handled together, so their triggers are decided and committed together
 * rather than in waves, each waiting behind the previous wave's commit.
 */
export const GATHER_MS = 5;

/**
 * One `CronJob` per active scheduled workflow, built from the read model once it has caught up with the log and
 * kept in step with it. Each due tick becomes a command; the workflow's decider accepts a tick once, so any
 * number of instances may schedule the same workflows.
 */
@Injectable()
export class WorkflowScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly jobs = new Map<string, ScheduledJob>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  /** Workflows whose job has fired and whose tick is about to be handled. */
  private fired: string[] = [];
  private gathering?: NodeJS.Timeout;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly commands: CommandBus,
    private readonly readModel: WorkflowsReadModel,
    private readonly projections: ProjectionRunner,
    private readonly runs: WorkflowRunOpener,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'schedulerEnabled' | 'scheduleCatchUpWindowMs'>,
  ) {}

  /**
   * Runs after the core module's bootstrap (global modules go first), which catches the read models up. The
   * ticks missed while the service was down are sent now but not awaited: the start does not wait for them.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.schedulerEnabled) return;
    await this.projections.whenCaughtUp();
    // Listening and reading the read model in one synchronous step: no batch can fall between the two.
    this.running = true;
    this.projections.onBatchApplied((events) => this.onBatchApplied(events));
    for (const workflow of this.readModel.activeSchedules()) {
      this.guarded(workflow.id, () => this.add(workflow, this.config.scheduleCatchUpWindowMs));
    }
    this.logger.log(`Scheduling ${this.jobs.size} workflows`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.gathering);
    for (const workflowId of [...this.jobs.keys()]) this.remove(workflowId);
    await this.settled();
  }

  /** How late a tick may run while the service is up: the catch-up window, but never less than the grace. */
  private get runningWindowMs(): number {
    return Math.max(this.config.scheduleCatchUpWindowMs, LATE_TICK_GRACE_MS);
  }

  get size(): number {
    return this.jobs.size;
  }

  /** Resolves once every command sent for a tick so far has been answered and its run's stream opened. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight);
    await this.runs.settled();
  }

  private onBatchApplied(events: RecordedEvent[]): void {
    if (!this.running) return;
    const touched = new Set<string>();
    for (const { stream, type } of events) {
      if (stream.startsWith(STREAM_PREFIX) && !TICK_EVENTS.has(type)) touched.add(stream.slice(STREAM_PREFIX.length));
    }
    for (const workflowId of touched) this.guarded(workflowId, () => this.reconcile(workflowId));
  }

  /** One workflow's schedule failing must stop neither the others nor the projections that call us. */
  private guarded(workflowId: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.logger.error(`Cannot schedule workflow ${workflowId}: ${String(error)}`);
    }
  }

  /** Brings one workflow's job in line with the read model: created, paused, resumed, or later changed. */
  private reconcile(workflowId: string): void {
    const workflow = this.readModel.schedule(workflowId);
    const wanted = workflow?.status === 'active' && workflow.trigger.type === 'schedule' ? workflow : undefined;
    const job = this.jobs.get(workflowId);
    if (job && wanted?.trigger.type === 'schedule') {
      if (job.schedule === cronSchedule(wanted.trigger.cron, wanted.trigger.timezone)) return;
    }
    if (job) this.remove(workflowId);
    if (wanted) this.add(wanted, this.runningWindowMs);
  }

  private add({ id, trigger, dueAfter }: ScheduledWorkflow, windowMs: number): void {
    if (trigger.type !== 'schedule') return;
    const schedule = cronSchedule(trigger.cron, trigger.timezone);
    const cronJob = new CronJob(trigger.cron, () => this.tick(id), null, false, trigger.timezone);
    cronJob.cronTime = schedule.cronTime();
    this.registry.addCronJob(jobName(id), cronJob);
    const job = { schedule, handledUntil: new Date(dueAfter) };
    this.jobs.set(id, job);
    this.handleDue(id, job, windowMs);
    cronJob.start();
  }

  private remove(workflowId: string): void {
    this.jobs.delete(workflowId);
    const name = jobName(workflowId);
    if (this.registry.doesExist('cron', name)) this.registry.deleteCronJob(name);
  }

  private tick(workflowId: string): void {
    if (!this.running) return;
    this.fired.push(workflowId);
    this.gathering ??= setTimeout(() => this.handleFired(), GATHER_MS);
  }

  private handleFired(): void {
    const fired = this.fired;
    this.fired = [];
    this.gathering = undefined;
    const windowMs = this.runningWindowMs;
    for (const workflowId of fired) {
      const job = this.jobs.get(workflowId);
      if (job) this.guarded(workflowId, () => this.handleDue(workflowId, job, windowMs));
    }
  }

  /**
   * `scheduledFor` is the cron occurrence itself, worked out from the last tick handled and the clock, never
   * the moment the timer fired: a late timer still names its tick, and ticks it overslept are skipped.
   */
  private handleDue(workflowId: string, job: ScheduledJob, windowMs: number): void {
    const due = dueTicks(job.schedule, job.handledUntil, this.clock.now(), windowMs);
    job.handledUntil = due.handledUntil;
    if (!due.skip && !due.run) return;
    const sent = due.skip ? this.skipThenRun(workflowId, due) : this.send(this.runCommand(workflowId, due.run!));
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /** Skipped ticks first: the decider accepts ticks in time order only. */
  private async skipThenRun(workflowId: string, { skip, run }: DueTicks): Promise<void> {
    await this.send(new SkipScheduledRunsCommand(workflowId, skip!.first, skip!.last, skip!.count));
    if (run) await this.send(this.runCommand(workflowId, run));
  }

  private runCommand(workflowId: string, scheduledFor: Date): TriggerWorkflowCommand {
    return new TriggerWorkflowCommand(workflowId, {}, { type: 'schedule', scheduledFor: scheduledFor.toISOString() });
  }

  private send(command: Command<unknown>): Promise<void> {
    return this.commands.execute(command).then(
      () => undefined,
      (error: unknown) => {
        // Another instance recorded the tick first, or the workflow was paused meanwhile: expected, not a fault.
        if (error instanceof DomainError) this.logger.debug(`${command.constructor.name}: ${error.message}`);
        else this.logger.warn(`${command.constructor.name} failed: ${String(error)}`);
      },
    );
  }
}

function jobName(workflowId: string): string {
  return `schedule:${workflowId}`;
}
