import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { InFlightLimit } from '../../shared/in-flight-limit';
import { WorkflowTriggers } from '../trigger-workflow/workflow-triggers';
import { ScheduledRunsOutcome, ScheduledTick, TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';

/**
 * Triggers in flight at most. Each is decided and handed to the store at once (its workflow's actor is idle and
 * cached), so a tick of up to this many runs is decided in one pass and recorded in one commit (after the first
 * trigger, which the idle store sends alone): its runs are recorded before the process managers react to any of
 * them. A larger tick goes on as places free up, when that commit is in. The bound keeps one pass's memory and
 * time (tens of microseconds a trigger) in check.
 */
export const MAX_TRIGGERS_IN_FLIGHT = 10_000;

/**
 * Sends the ticks' triggers side by side, a bounded number at a time; each workflow's actor decides its own
 * (a tick is refused twice). One failing or refused never stops the others; they are counted and logged once.
 */
@CommandHandler(TriggerScheduledRunsCommand)
export class TriggerScheduledRunsHandler implements ICommandHandler<TriggerScheduledRunsCommand, ScheduledRunsOutcome> {
  private readonly logger = new Logger(TriggerScheduledRunsHandler.name);

  constructor(private readonly triggers: WorkflowTriggers) {}

  async execute({ ticks }: TriggerScheduledRunsCommand): Promise<ScheduledRunsOutcome> {
    const outcome = { recorded: 0, refused: 0, failed: 0 };
    let firstFailure: unknown;
    const limit = new InFlightLimit(MAX_TRIGGERS_IN_FLIGHT);
    for (const tick of ticks) {
      const place = limit.take();
      if (place) await place;
      this.trigger(tick).then(
        () => {
          outcome.recorded++;
          limit.release();
        },
        (error: unknown) => {
          if (error instanceof DomainError) outcome.refused++;
          else if (outcome.failed++ === 0) firstFailure = error;
          limit.release();
        },
      );
    }
    await limit.whenDrained();
    // Refusals are expected (another instance recorded the tick first, or the workflow was paused meanwhile).
    if (outcome.refused) this.logger.debug(`${outcome.refused} ticks were refused: recorded before, or paused`);
    if (outcome.failed) this.logger.warn(`${outcome.failed} scheduled runs failed: ${String(firstFailure)}`);
    return outcome;
  }

  private trigger({ workflowId, scheduledFor }: ScheduledTick) {
    return this.triggers.trigger(workflowId, {}, { type: 'schedule', scheduledFor: scheduledFor.toISOString() });
  }
}
