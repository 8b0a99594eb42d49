import { WorkflowEvent } from '../workflow/workflow.events';

/** The most ticks one backfill may run. */
export const MAX_BACKFILL_TICKS = 1000;

/** What became of one tick of a backfill: a run, or what the overlap policy did with it. */
export interface BackfillTick {
  scheduledFor: string;
  outcome: 'triggered' | 'skipped' | 'buffered';
  /** The run it started; null when skipped or kept for later. */
  runId: string | null;
}

export interface Backfill {
  workflowId: string;
  from: string;
  to: string;
  ticks: BackfillTick[];
}

/** Each tick's outcome, from the events the backfill recorded (one per tick, in order). */
export function backfillTicks(events: WorkflowEvent[]): BackfillTick[] {
  return events.flatMap((event): BackfillTick[] => {
    if (event.type === 'WorkflowTriggered' && event.data.trigger.type === 'schedule')
      return [{ scheduledFor: event.data.trigger.scheduledFor, outcome: 'triggered', runId: event.data.runId }];
    if (event.type === 'ScheduledTickSkipped')
      return [{ scheduledFor: event.data.scheduledFor, outcome: 'skipped', runId: null }];
    if (event.type === 'ScheduledTickBuffered')
      return [{ scheduledFor: event.data.scheduledFor, outcome: 'buffered', runId: null }];
    return [];
  });
}
