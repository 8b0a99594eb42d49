import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { agentRunDecider, agentRunStream } from '../agents/agent-run';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { APP_CONFIG, AppConfig } from '../config';
import { ProjectionRunner } from '../read-models/projection-runner';
import { ReadYourWrites } from '../read-models/read-your-writes';
import { Clock } from '../shared/clock';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { workflowRunDecider, workflowRunStream } from '../workflows/workflow-run';

const BATCH = 100;

/**
 * Ends the runs whose executor died: a run that has not renewed its lease for `RUN_LEASE_MS` fails with
 * `interrupted` (or ends cancelled, if a cancel was asked for); and a run that has waited for a decision for
 * `RUN_APPROVAL_TIMEOUT_MS` fails with `approval_timeout`. Every instance sweeps; the decider checks the
 * lease again against the stream, so a run that is still alive is left alone.
 */
@Injectable()
export class StaleRunSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleRunSweeper.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly runs: AgentsReadModel,
    private readonly workflows: WorkflowsReadModel,
    private readonly projections: ProjectionRunner,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runs.executorEnabled) return;
    await this.projections.whenCaughtUp();
    this.timer = setInterval(() => void this.sweep(), Math.max(50, Math.floor(this.config.runs.leaseMs / 2)));
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Ends the stale runs found now; resolves with how many it ended. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepNow().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepNow(): Promise<number> {
    const staleBefore = new Date(this.clock.now().getTime() - this.config.runs.leaseMs).toISOString();
    let ended = (await this.expireApprovals()) + (await this.expireWorkflowApprovals());
    for (const runId of this.runs.staleRuns(staleBefore, BATCH)) {
      try {
        const { events, position } = await this.actors.send(
          agentRunStream(runId),
          agentRunDecider,
          { type: 'InterruptAgentRun', staleBefore },
          { correlationId: runId, causationId: runId },
        );
        if (events.length === 0) continue;
        ended++;
        await this.readYourWrites.waitFor(position);
        this.logger.warn(`Run ${runId} was left running by an instance that stopped; it ended as ${events[0].type}`);
      } catch (error) {
        this.logger.warn(`Could not end the stale run ${runId} yet: ${String(error)}`);
      }
    }
    return ended;
  }

  /** Workflow runs waiting at an approval step past its `timeoutMs` fail with `approval_timeout`. */
  private async expireWorkflowApprovals(): Promise<number> {
    let ended = 0;
    for (const runId of this.workflows.waitingRuns(BATCH)) {
      try {
        const { events, position } = await this.actors.send(
          workflowRunStream(runId),
          workflowRunDecider,
          { type: 'ExpireWorkflowApproval' },
          { correlationId: runId, causationId: runId },
        );
        if (events.length === 0) continue;
        ended++;
        await this.readYourWrites.waitFor(position);
      } catch (error) {
        this.logger.warn(`Could not end the waiting workflow run ${runId} yet: ${String(error)}`);
      }
    }
    return ended;
  }

  /** Runs that waited longer than `RUN_APPROVAL_TIMEOUT_MS` for a decision fail with `approval_timeout`. */
  private async expireApprovals(): Promise<number> {
    const timeoutMs = this.config.runs.approvalTimeoutMs;
    const before = new Date(this.clock.now().getTime() - timeoutMs).toISOString();
    let ended = 0;
    for (const runId of this.runs.waitingRuns(before, BATCH)) {
      try {
        const { events, position } = await this.actors.send(
          agentRunStream(runId),
          agentRunDecider,
          { type: 'ExpireApprovals', before, timeoutMs },
          { correlationId: runId, causationId: runId },
        );
        if (events.length === 0) continue;
        ended++;
        await this.readYourWrites.waitFor(position);
      } catch (error) {
        this.logger.warn(`Could not end the waiting run ${runId} yet: ${String(error)}`);
      }
    }
    return ended;
  }
}
