import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { DomainError } from '../../domain/decider';
import { Clock } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { StepTimer, StepTimersReadModel } from '../../workflows/queries/step-timers.read-model';
import { WorkflowRunCommand, runIdsFrom } from '../../workflows/workflow-run/workflow-run.commands';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';

const BATCH = 1000;

/**
 * Fires the timers of waiting steps (a sleep's wake, a wait's or an approval's time-out) from the read model: every
 * `WORKFLOW_TIMER_POLL_MS` it fires those due and sets a timer for each due before the next look. Nothing else is
 * held, so ten thousand sleeping runs cost rows, not memory. Every instance may fire a timer: the run's decider
 * acts on it once (and not before its time), so a second firing changes nothing.
 */
@Injectable()
export class StepTimers extends ProcessManager {
  protected readonly name = 'workflow-step-timers';
  private poll?: NodeJS.Timeout;
  /** The timers set to fire before the next look, by run, step and kind. */
  private readonly armed = new Map<string, NodeJS.Timeout>();
  private readonly pollMs: number;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly timers: StepTimersReadModel,
    private readonly clock: Clock,
  ) {
    super(deps, config.runs.executorEnabled);
    this.pollMs = config.workflows.timerPollMs;
  }

  protected override begin(): void {
    this.poll = setInterval(() => void this.fireDue().catch((error) => this.logger.warn(String(error))), this.pollMs);
    this.poll.unref();
    void this.fireDue().catch((error) => this.logger.warn(String(error)));
  }

  protected override stopTakingWork(): void {
    clearInterval(this.poll);
    for (const timer of this.armed.values()) clearTimeout(timer);
    this.armed.clear();
  }

  /** Fires the timers due now (how many), and sets those due before the next look. */
  async fireDue(): Promise<number> {
    const now = this.clock.now().getTime();
    const soon = this.timers.dueBy(new Date(now + this.pollMs).toISOString(), BATCH);
    const due = soon.filter((timer) => Date.parse(timer.dueAt) <= now);
    for (const timer of soon) if (Date.parse(timer.dueAt) > now) this.arm(timer, Date.parse(timer.dueAt) - now);
    await Promise.all(due.map((timer) => this.fire(timer)));
    return due.length;
  }

  private arm(timer: StepTimer, delayMs: number): void {
    const key = `${timer.runId}:${timer.stepIndex}:${timer.kind}`;
    if (this.armed.has(key) || this.stopping) return;
    const handle = setTimeout(() => {
      this.armed.delete(key);
      void this.fire(timer);
    }, delayMs);
    this.armed.set(key, handle);
  }

  private async fire({ runId, stepIndex: index, kind }: StepTimer): Promise<void> {
    const command: WorkflowRunCommand =
      kind === 'wake'
        ? { type: 'WakeWorkflowStep', index, newRunId: runIdsFrom(this.ids) }
        : kind === 'wait_timeout'
          ? { type: 'ExpireWorkflowWait', index }
          : { type: 'ExpireWorkflowApproval' };
    try {
      await this.persistently(
        () =>
          this.actors.send(workflowRunStream(runId), workflowRunDecider, command, {
            correlationId: runId,
            causationId: runId,
          }),
        `the ${kind} timer of step ${index} of ${runId}`,
      );
    } catch (error) {
      // A run that is gone refuses: its timer has nothing left to do.
      if (!(error instanceof DomainError) && !this.stopping) throw error;
    }
  }
}
