import { Inject, Injectable } from '@nestjs/common';
import { CommandResult } from '../../actors/actor';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { AgentsReadModel, StaleRun } from '../../agents/queries/agents.read-model';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';

/** Runs read, and ended together (their appends share commits), at a time; the sweep goes on until none is left. */
const BATCH = 100;

/**
 * Ends the runs whose executor died: a run that has not renewed its lease for `RUN_LEASE_MS` fails with
 * `interrupted` (or ends cancelled, if a cancel was asked for); and a run that has waited for a decision for
 * `RUN_APPROVAL_TIMEOUT_MS` fails with `approval_timeout`. Every instance sweeps; the decider checks the
 * lease again against the stream, so a run that is still alive is left alone.
 */
@Injectable()
export class StaleRunSweeper extends ProcessManager {
  protected readonly name = 'stale-run-sweeper';
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly runs: AgentsReadModel,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override begin(): void {
    this.timer = setInterval(() => void this.sweep(), Math.max(50, Math.floor(this.config.runs.leaseMs / 2)));
    this.timer.unref();
  }

  protected override stopTakingWork(): void {
    clearInterval(this.timer);
  }

  protected override async finishWork(): Promise<void> {
    await this.sweeping;
  }

  /** Ends the stale runs found now; resolves with how many it ended. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepNow().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepNow(): Promise<number> {
    const staleBefore = new Date(this.clock.now().getTime() - this.config.runs.leaseMs).toISOString();
    let ended = await this.expireApprovals();
    let after: StaleRun | undefined;
    for (;;) {
      const page = this.runs.staleRuns(staleBefore, BATCH, after);
      if (page.length === 0) {
        if (ended > 0)
          this.logger.warn(`Ended ${ended} runs left running by an instance that stopped or waiting too long`);
        return ended;
      }
      after = page[page.length - 1];
      const outcomes = await Promise.all(
        page.map(({ id }) =>
          this.end(id, 'the stale run', () =>
            this.actors.send(
              agentRunStream(id),
              agentRunDecider,
              { type: 'InterruptAgentRun', staleBefore },
              causedBy(id),
            ),
          ),
        ),
      );
      ended += outcomes.filter(Boolean).length;
    }
  }

  /** Runs that waited longer than `RUN_APPROVAL_TIMEOUT_MS` for a decision fail with `approval_timeout`. */
  private async expireApprovals(): Promise<number> {
    const timeoutMs = this.config.runs.approvalTimeoutMs;
    const before = new Date(this.clock.now().getTime() - timeoutMs).toISOString();
    const outcomes = await Promise.all(
      this.runs
        .waitingRuns(before, BATCH)
        .map((id) =>
          this.end(id, 'the waiting run', () =>
            this.actors.send(
              agentRunStream(id),
              agentRunDecider,
              { type: 'ExpireApprovals', before, timeoutMs },
              causedBy(id),
            ),
          ),
        ),
    );
    return outcomes.filter(Boolean).length;
  }

  /** Ends one run by `command` (its decider checks again that it should end); whether it ended it. */
  private async end(
    runId: string,
    what: string,
    command: () => Promise<CommandResult<unknown, { type: string }>>,
  ): Promise<boolean> {
    try {
      const { events, position } = await command();
      if (events.length === 0) return false;
      await this.readYourWrites.waitFor(position);
      this.logger.debug(`Ended ${what} ${runId} as ${events[0].type}`);
      return true;
    } catch (error) {
      this.logger.warn(`Could not end ${what} ${runId} yet: ${String(error)}`);
      return false;
    }
  }
}

function causedBy(runId: string) {
  return { correlationId: runId, causationId: runId };
}
