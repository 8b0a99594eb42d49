import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { StreamCommand } from '../../actors/stream-commands';
import { CommandContext } from '../../actors/actor';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { activeTrace } from '../../shared/trace-context';
import { WorkflowsReadModel } from '../queries/workflows.read-model';
import { QueuedRun, queuedRunFrom } from '../workflow-run/queued-run';
import { WorkflowRunCommand } from '../workflow-run/workflow-run.commands';
import { WorkflowRunEvent, workflowRunStream } from '../workflow-run/workflow-run.events';
import { WorkflowRunState } from '../workflow-run/workflow-run.state';
import { workflowRunDecider } from '../workflow-run/workflow-run';

/** The command that opens a run's stream. */
export function openingCommand(run: QueuedRun): StreamCommand<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> {
  return {
    stream: workflowRunStream(run.id),
    decider: workflowRunDecider,
    command: { type: 'QueueWorkflowRun', ...run },
  };
}

/** Runs younger than this may still be being opened by the request that triggered them. */
const GRACE_MS = 30_000;
const SWEEP_EVERY_MS = 15_000;
const SWEEP_BATCH = 500;

interface DeferredRun {
  run: QueuedRun;
  context: CommandContext;
}

/**
 * Opens a run's own stream once its workflow has recorded the trigger, where the store cannot write both in one
 * commit (EventStoreDB; see WorkflowTriggers). A request that triggered the run does this at once; a
 * schedule tick defers it (`openSoon`), so the tick's triggers, which record the runs, come first.
 * Should opening fail (the store went away, the process died), the sweep opens the stream later, so no recorded
 * trigger is left without its run. Opening is idempotent.
 */
@Injectable()
export class WorkflowRunOpener extends ProcessManager {
  protected readonly name = 'workflow-run-opener';
  private timer?: NodeJS.Timeout;
  private deferred: DeferredRun[] = [];
  private draining?: Promise<void>;

  constructor(
    deps: ProcessManagerDeps,
    private readonly actors: ActorRegistry,
    private readonly readModel: WorkflowsReadModel,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {
    super(deps);
  }

  open(run: QueuedRun, context: CommandContext) {
    const { stream, decider, command } = openingCommand(run);
    return this.actors.send(stream, decider, command, context, { newStream: true });
  }

  /** Opens the run's stream on the next turn of the event loop, with every other run deferred by then. */
  openSoon(run: QueuedRun, context: CommandContext): void {
    // The trace (a tick's) handed on explicitly: its async scope may have ended by the next turn.
    this.deferred.push({ run, context: context.trace ? context : { ...context, trace: activeTrace() } });
    this.draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /** Resolves once every run deferred so far has been opened (or left to the sweep). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.deferred.length) {
      const runs = this.deferred;
      this.deferred = [];
      const failures = (await Promise.allSettled(runs.map(({ run, context }) => this.open(run, context)))).filter(
        (outcome) => outcome.status === 'rejected',
      );
      if (failures.length) {
        const reason = String((failures[0] as PromiseRejectedResult).reason);
        this.logger.warn(`${failures.length} runs are recorded; their streams will be opened later: ${reason}`);
      }
    }
    this.draining = undefined;
  }

  protected override async begin(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  protected override stopTakingWork(): void {
    clearInterval(this.timer);
  }

  protected override async finishWork(): Promise<void> {
    await this.settled();
  }

  /** Opens the streams of runs triggered more than GRACE_MS ago that still have none. */
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - GRACE_MS).toISOString();
    const runs = this.readModel.unopenedRuns(before, SWEEP_BATCH);
    for (const run of runs) {
      try {
        const { position } = await this.open(queuedRunFrom(run), {
          correlationId: run.id,
          causationId: run.workflowId,
        });
        await this.readYourWrites.waitFor(position);
        this.logger.log(`Opened the stream of run ${run.id}, whose trigger was recorded without it`);
      } catch (error) {
        this.logger.warn(`Could not open the stream of run ${run.id} yet: ${String(error)}`);
        break;
      }
    }
    return runs.length;
  }
}
