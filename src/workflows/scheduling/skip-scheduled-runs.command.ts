import { Command } from '@nestjs/cqrs';

/** Sent by the scheduler for ticks it will not run: every tick of the schedule from `first` to `last`. */
export class SkipScheduledRunsCommand extends Command<void> {
  constructor(
    readonly workflowId: string,
    readonly first: Date,
    readonly last: Date,
    readonly count: number | null,
  ) {
    super();
  }
}
