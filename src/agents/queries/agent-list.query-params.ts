import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQuery } from '../../http/paging';
import { AGENT_STATUSES, AgentStatus } from '../agent';

/** `GET /v1/agents`: paging, and filters by status (default: all but archived) and by name prefix. */
export class AgentListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: AGENT_STATUSES, description: 'Default: all but archived.' })
  @IsIn(AGENT_STATUSES, { message: `status must be one of ${AGENT_STATUSES.join(', ')}` })
  @IsOptional()
  status?: AgentStatus;

  @ApiPropertyOptional({ maxLength: 200, description: 'A prefix of the name (ASCII letters in any case).' })
  @MaxLength(200)
  @IsString({ message: 'name must be given once' })
  @IsOptional()
  name?: string;
}

/** `GET /v1/agents/{id}/runs/{runId}`: what to show beside the run. */
export class AgentRunQuery {
  @ApiPropertyOptional({ enum: ['tree'], description: '`tree`: the run and all its descendants, as `tree`.' })
  @IsIn(['tree'], { message: 'include must be tree' })
  @IsOptional()
  include?: 'tree';
}
