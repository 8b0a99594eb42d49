import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsRFC3339, IsString } from 'class-validator';
import { TIME } from '../../http/openapi/fields';

/** The window of a backfill: every tick of the schedule at or after `from` and at or before `to`. */
export class BackfillWorkflowDto {
  @ApiProperty({ ...TIME, maxLength: 40, example: '2026-11-01T00:00:00Z', description: 'The window opens here.' })
  @IsRFC3339({ message: 'from must be an RFC 3339 time, such as 2026-11-01T00:00:00Z' })
  @IsString({ message: 'from must be a string' })
  @IsDefined({ message: 'from is required' })
  from: string;

  @ApiProperty({
    ...TIME,
    maxLength: 40,
    example: '2026-11-08T00:00:00Z',
    description: 'The window closes here: after `from`, and not after now (the schedule runs the ticks to come).',
  })
  @IsRFC3339({ message: 'to must be an RFC 3339 time, such as 2026-11-08T00:00:00Z' })
  @IsString({ message: 'to must be a string' })
  @IsDefined({ message: 'to is required' })
  to: string;
}
