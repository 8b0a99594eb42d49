import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { ListQuery } from '../../http/paging';

const STATUSES = ['active', 'archived'] as const;

/** `GET /v1/datasets`: paging, and a filter by status (default: all). */
export class DatasetListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: STATUSES, description: 'Default: all.' })
  @IsIn(STATUSES, { message: `status must be one of ${STATUSES.join(', ')}` })
  @IsOptional()
  status?: (typeof STATUSES)[number];
}

/** `GET /v1/datasets/{id}/items`: paging, and the version to read (default: the current one). */
export class DatasetItemListQuery extends ListQuery {
  @ApiPropertyOptional({
    minimum: 1,
    description: 'A version of the dataset: its items as they were then. Default: now.',
  })
  @Min(1, { message: 'version must be at least 1' })
  @IsInt({ message: 'version must be an integer' })
  @Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value))
  @IsOptional()
  version?: number;
}
