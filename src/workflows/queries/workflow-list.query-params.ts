import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQuery } from '../../http/paging';
import { WORKFLOW_STATUSES, WorkflowStatus } from '../workflow/workflow.state';

/** `GET /v1/workflows`: paging, and filters by status (default: all but archived) and by name prefix. */
export class WorkflowListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: WORKFLOW_STATUSES, description: 'Default: all but archived.' })
  @IsIn(WORKFLOW_STATUSES, { message: `status must be one of ${WORKFLOW_STATUSES.join(', ')}` })
  @IsOptional()
  status?: WorkflowStatus;

  @ApiPropertyOptional({ maxLength: 200, description: 'A prefix of the name (ASCII letters in any case).' })
  @MaxLength(200)
  @IsString({ message: 'name must be given once' })
  @IsOptional()
  name?: string;
}
