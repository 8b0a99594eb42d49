import { ApiProperty } from '@nestjs/swagger';
import { LIST_ITEMS, idField } from '../http/openapi/fields';

/** What a thread's turn sent with `multitask` did to the turns open before it, for the OpenAPI document. */

export class TurnsSupersededSchema {
  @ApiProperty({
    enum: ['interrupt', 'rollback'],
    description:
      '`interrupt`: their turns stay in the thread, marked interrupted; `rollback`: nothing of them is kept.',
  })
  strategy: string;

  @ApiProperty({
    type: 'array',
    items: { ...idField('agentrun'), type: 'string' },
    maxItems: LIST_ITEMS,
    description: 'The runs cancelled.',
  })
  runIds: string[];
}

export class SupersededBySchema {
  @ApiProperty({ ...idField('agentrun'), description: 'The later turn that cancelled it.' })
  runId: string;

  @ApiProperty({ enum: ['interrupt', 'rollback'] })
  strategy: string;
}
