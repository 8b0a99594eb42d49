import { Command } from '@nestjs/cqrs';
import { Backfill } from './backfill';

export class BackfillWorkflowCommand extends Command<Backfill> {
  constructor(
    readonly workflowId: string,
    readonly from: Date,
    readonly to: Date,
  ) {
    super();
  }
}
