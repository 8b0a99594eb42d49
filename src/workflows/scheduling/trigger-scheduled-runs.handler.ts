import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { BatchCommand, BatchOutcome } from '../../actors/batch-sender';
import { DomainError } from '../../domain/decider';
import { IdGenerator } from '../../shared/ids';
import { WorkflowCommand } from '../workflow/workflow.commands';
import { WorkflowEvent } from '../workflow/workflow.events';
import { WorkflowState } from '../workflow/workflow.state';
import { workflowDecider } from '../workflow/workflow';
import { WorkflowRunOpener } from '../trigger-workflow/workflow-run-opener';
import { runsQueuedBy } from '../trigger-workflow/workflow-triggers';
import { PreparedTicks, TakenTicks, opensRuns, scheduledTrigger } from './prepared-ticks';
import { ScheduledRunsOutcome, TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';

type Sent = {
  commands: Array<BatchCommand<WorkflowCommand>>;
  outcomes: Array<BatchOutcome<WorkflowState, WorkflowEvent>>;
};

/**
 * Decides the ticks' triggers as a batch (ActorRegistry.sendBatch): every due workflow's trigger on its state in
 * memory, in one loop, and their runs recorded in one commit. Those the scheduler prepared before the tick
 * (PreparedTicks) are committed as prepared, unless their workflow moved on since. Each workflow's decider still
 * accepts a tick once, and a command sent to a workflow meanwhile waits for the pass, so any number of instances
 * record one run per tick. One refused or failing never stops the others; they are counted and logged once.
 */
@CommandHandler(TriggerScheduledRunsCommand)
export class TriggerScheduledRunsHandler implements ICommandHandler<TriggerScheduledRunsCommand, ScheduledRunsOutcome> {
  private readonly logger = new Logger(TriggerScheduledRunsHandler.name);

  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly runs: WorkflowRunOpener,
    private readonly preparedTicks: PreparedTicks,
  ) {}

  async execute({ ticks }: TriggerScheduledRunsCommand): Promise<ScheduledRunsOutcome> {
    const { prepared, rest } = this.preparedTicks.take(ticks);
    const sent = await Promise.all([this.sendPrepared(prepared), this.sendNow(rest)]);
    const outcome = { recorded: 0, refused: 0, failed: 0 };
    let firstFailure: unknown;
    for (const { commands, outcomes } of sent.flat()) {
      for (let i = 0; i < outcomes.length; i++) {
        const result = outcomes[i];
        if ('ok' in result) {
          outcome.recorded++;
          // The store could not open the runs in the trigger's commit (EventStoreDB): they open next.
          if (!result.ok.opened)
            for (const run of runsQueuedBy(result.ok.events)) this.runs.openSoon(run, commands[i].context);
        } else if (result.error instanceof DomainError) outcome.refused++;
        else if (outcome.failed++ === 0) firstFailure = result.error;
      }
    }
    // Refusals are expected (another instance recorded the tick first, or the workflow was paused meanwhile).
    if (outcome.refused) this.logger.debug(`${outcome.refused} ticks were refused: recorded before, or paused`);
    if (outcome.failed) this.logger.warn(`${outcome.failed} scheduled runs failed: ${String(firstFailure)}`);
    return outcome;
  }

  /** Prepared ticks: all in the same commits. */
  private async sendPrepared(prepared: TakenTicks['prepared']): Promise<Sent[]> {
    const outcomes = await this.actors.sendPrepared(prepared);
    return prepared.map(({ batch, wanted }, i) => ({
      commands: wanted.map((index) => batch.commands[index]),
      outcomes: outcomes[i],
    }));
  }

  /** Ticks not prepared, decided now: passes of at most 10,000, each once the last is committed (see sendBatch). */
  private async sendNow(ticks: TriggerScheduledRunsCommand['ticks']): Promise<Sent> {
    if (!ticks.length) return { commands: [], outcomes: [] };
    const commands = ticks.map((tick) => scheduledTrigger(tick, this.ids));
    return { commands, outcomes: await this.actors.sendBatch(workflowDecider, commands, { opens: opensRuns }) };
  }
}
