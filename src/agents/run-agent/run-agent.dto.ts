import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { idField } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';
import { RunTaskDto } from '../agent-runs.port';

export class RunAgentDto extends RunTaskDto {
  @ApiPropertyOptional({
    ...idField('thread'),
    description: 'A thread of this agent: the run continues its conversation. Default: none (a one-off run).',
  })
  @Matches(/^thread_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'threadId must be a thread id (thread_ and a ULID)' })
  @IsString()
  @Optional()
  threadId?: string;
}
