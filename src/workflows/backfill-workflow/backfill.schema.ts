import { ApiProperty } from '@nestjs/swagger';
import { LIST_ITEMS, TIME, idField } from '../../http/openapi/fields';
import { MAX_BACKFILL_TICKS } from './backfill';

/** The answer of a backfill, for the OpenAPI document. */

export class BackfillTickSchema {
  @ApiProperty(TIME)
  scheduledFor: string;

  @ApiProperty({
    enum: ['triggered', 'skipped', 'buffered'],
    description: '`skipped` or `buffered`: what the overlap policy did with a tick that came while a run was going.',
  })
  outcome: string;

  @ApiProperty({ ...idField('wfrun'), nullable: true, description: 'The run it started; null: none (yet).' })
  runId: string | null;
}

export class BackfillSchema {
  @ApiProperty(idField('wf'))
  workflowId: string;

  @ApiProperty(TIME)
  from: string;

  @ApiProperty(TIME)
  to: string;

  @ApiProperty({ type: [BackfillTickSchema], maxItems: Math.max(MAX_BACKFILL_TICKS, LIST_ITEMS) })
  ticks: BackfillTickSchema[];
}
