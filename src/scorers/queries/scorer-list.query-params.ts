import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQuery } from '../../http/paging';

const STATUSES = ['active', 'archived'] as const;

/** `GET /v1/scorers`: paging, and a filter by status (default: all). */
export class ScorerListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: STATUSES, description: 'Default: all.' })
  @IsIn(STATUSES, { message: `status must be one of ${STATUSES.join(', ')}` })
  @IsOptional()
  status?: (typeof STATUSES)[number];
}
