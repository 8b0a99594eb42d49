import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { UsageGrouping } from './usage.read-model';

/** A date (`2026-11-01`, midnight UTC) or a date-time with its zone (`2026-11-01T08:00:00Z`, `…+01:00`). */
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const TIME_FIELD = {
  type: String,
  maxLength: 35,
  pattern: DATE_OR_TIME.source,
} as const;

export class UsageQuery {
  @ApiPropertyOptional({
    ...TIME_FIELD,
    description:
      'Runs that ended at or after this time: a date (midnight UTC) or a date-time with its zone, taken down to its hour (UTC). Unset: from the first run.',
    example: '2026-11-01',
  })
  @Matches(DATE_OR_TIME, {
    message: 'from must be a date (2026-11-01) or a date-time with its zone (2026-11-01T08:00:00Z)',
  })
  @MaxLength(35)
  @IsString({ message: 'from must be given once' })
  @IsOptional()
  from?: string;

  @ApiPropertyOptional({
    ...TIME_FIELD,
    description:
      'Runs that ended before this time: a date (midnight UTC) or a date-time with its zone, taken up to its hour (UTC). Unset: now.',
    example: '2026-12-01',
  })
  @Matches(DATE_OR_TIME, {
    message: 'to must be a date (2026-12-01) or a date-time with its zone (2026-12-01T00:00:00Z)',
  })
  @MaxLength(35)
  @IsString({ message: 'to must be given once' })
  @IsOptional()
  to?: string;

  @ApiPropertyOptional({
    enum: ['agent', 'model', 'day'],
    description: 'Also sums by agent (`key` is its id), by model (`provider/model`) or by day (UTC, `YYYY-MM-DD`).',
  })
  @IsIn(['agent', 'model', 'day'], { message: 'groupBy must be one of agent, model, day' })
  @IsOptional()
  groupBy?: UsageGrouping;
}
