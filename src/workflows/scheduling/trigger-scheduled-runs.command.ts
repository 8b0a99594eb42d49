import { Command } from '@nestjs/cqrs';

export interface ScheduledTick {
  workflowId: string;
  scheduledFor: Date;
}

/** How a batch of ticks went: runs recorded, ticks the workflows refused (recorded before, paused), failures. */
export interface ScheduledRunsOutcome {
  recorded: number;
  refused: number;
  failed: number;
}

/** Sent by the scheduler for the ticks due together: one run each, recorded side by side in few commits. */
export class TriggerScheduledRunsCommand extends Command<ScheduledRunsOutcome> {
  constructor(readonly ticks: ScheduledTick[]) {
    super();
  }
}
