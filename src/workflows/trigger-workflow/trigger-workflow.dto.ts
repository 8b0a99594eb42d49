import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { Optional } from '../../http/validation';

export class TriggerWorkflowDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {}, example: { topic: 'cron' } })
  @Optional()
  @IsObject({ message: 'input must be an object' })
  input: Record<string, unknown> = {};
}
