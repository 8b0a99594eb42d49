import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { BatchCommand } from '../../actors/batch-sender';
import { DomainError } from '../../domain/decider';
import { isoTime } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { WorkflowCommand } from '../workflow/workflow.commands';
import { WorkflowEvent, workflowStream } from '../workflow/workflow.events';
import { workflowDecider } from '../workflow/workflow';
import { WorkflowRunOpener, openingCommand } from '../trigger-workflow/workflow-run-opener';
import { runsQueuedBy } from '../trigger-workflow/workflow-triggers';
import { ScheduledRunsOutcome, ScheduledTick, TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';

/** A trigger's runs open in its commit where the store can (see WorkflowTriggers). */
const opens = (events: WorkflowEvent[]) => runsQueuedBy(events).map(openingCommand);

/**
 * Decides the ticks' triggers as a batch (ActorRegistry.sendBatch): every due workflow's trigger on its state in
 * memory, in one loop, and their runs recorded in one commit. Each workflow's decider still accepts a tick once,
 * and a command sent to a workflow meanwhile waits for the pass, so any number of instances record one run per
 * tick. One refused or failing never stops the others; they are counted and logged once.
 */
@CommandHandler(TriggerScheduledRunsCommand)
export class TriggerScheduledRunsHandler implements ICommandHandler<TriggerScheduledRunsCommand, ScheduledRunsOutcome> {
  private readonly logger = new Logger(TriggerScheduledRunsHandler.name);

  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly runs: WorkflowRunOpener,
  ) {}

  async execute({ ticks }: TriggerScheduledRunsCommand): Promise<ScheduledRunsOutcome> {
    const outcome = { recorded: 0, refused: 0, failed: 0 };
    let firstFailure: unknown;
    // Passes of at most 10,000, each once the last is committed (see sendBatch).
    const commands = ticks.map((tick) => this.triggerOf(tick));
    const outcomes = await this.actors.sendBatch(workflowDecider, commands, { opens });
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
    // Refusals are expected (another instance recorded the tick first, or the workflow was paused meanwhile).
    if (outcome.refused) this.logger.debug(`${outcome.refused} ticks were refused: recorded before, or paused`);
    if (outcome.failed) this.logger.warn(`${outcome.failed} scheduled runs failed: ${String(firstFailure)}`);
    return outcome;
  }

  private triggerOf({ workflowId, scheduledFor }: ScheduledTick): BatchCommand<WorkflowCommand> {
    const runId = this.ids.newId('wfrun');
    const trigger = { type: 'schedule' as const, scheduledFor: isoTime(scheduledFor) };
    return {
      stream: workflowStream(workflowId),
      command: { type: 'TriggerWorkflow', workflowId, runId, input: {}, trigger },
      context: { correlationId: runId, causationId: workflowId },
    };
  }
}
