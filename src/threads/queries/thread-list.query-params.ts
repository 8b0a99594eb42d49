import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ListQuery } from '../../http/paging';
import { idField } from '../../http/openapi/fields';

export class ThreadListQuery extends ListQuery {
  @ApiPropertyOptional({ ...idField('agent'), description: "Only this agent's threads." })
  @Matches(/^agent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'agentId must be an agent id (agent_ and a ULID)' })
  @IsString({ message: 'agentId must be given once' })
  @IsOptional()
  agentId?: string;
}
