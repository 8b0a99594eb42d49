import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { RUN_ORDERS, RUN_STATUSES, RunOrder, RunStatus } from '../domain/run';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** A cursor is the base64url of an id: 50 characters for the longest, `experiment_` and a ULID (37 bytes). */
export const CURSOR_LENGTH = 52;

export class ListQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })
  // Checks run bottom-up and stop at the first failure: the type first.
  @Max(MAX_LIMIT)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  @Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value))
  @IsOptional()
  limit: number = DEFAULT_LIMIT;

  @ApiPropertyOptional({ maxLength: CURSOR_LENGTH, description: 'The `nextCursor` of the previous page.' })
  @IsString({ message: 'cursor must be given once' })
  @IsOptional()
  cursor?: string;
}

/** A list of runs also filters by status. */
export class RunListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: RUN_STATUSES })
  @IsIn(RUN_STATUSES, { message: `status must be one of ${RUN_STATUSES.join(', ')}` })
  @IsOptional()
  status?: RunStatus;

  @ApiPropertyOptional({ enum: RUN_ORDERS, default: 'asc', description: '`desc`: newest first.' })
  @IsIn(RUN_ORDERS, { message: `order must be one of ${RUN_ORDERS.join(', ')}` })
  @IsOptional()
  order: RunOrder = 'asc';
}
