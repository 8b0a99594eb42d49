import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { RUN_STATUSES, RunStatus } from '../domain/run';
import { ValidationFailed } from './problem';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** A cursor is the base64url of an id. */
export const CURSOR_LENGTH = 44;

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
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursors are opaque to clients: the base64url of the last id on the page. */
export function decodeCursor(cursor: string | undefined, isValidId: (id: string) => boolean): string {
  if (cursor === undefined) return '';
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isValidId(id)) throw new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
  return id;
}

/** `rows` holds up to limit + 1 rows ordered by id; the extra row only says whether another page exists. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, nextCursor: more ? Buffer.from(items[items.length - 1].id).toString('base64url') : null };
}
