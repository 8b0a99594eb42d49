import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { NOT_BLANK } from '../../http/validation';

/** The most runs of one key `concurrency.limit` may allow at once. */
export const MAX_RUNS_PER_KEY = 1000;

/** A workflow's `concurrency`: at most `limit` runs at once per key. */
export class ConcurrencyDto {
  @ApiProperty({
    maxLength: 500,
    pattern: '^(?![\\s\\S]*\\{\\{\\s*steps\\.)',
    example: '{{input.customerId}}',
    description:
      "A template over the run's input, filled in when the run is triggered (at most 200 characters are kept): runs with the same key share the limit. It cannot read steps, which have not run then.",
  })
  @MaxLength(500)
  @Matches(/^(?![\s\S]*\{\{\s*steps\.)/, {
    message: 'concurrency.key is filled in from the input when a run is triggered: it cannot read {{steps…}}',
  })
  @Matches(NOT_BLANK, { message: 'concurrency.key must not be empty' })
  @IsString({ message: 'concurrency.key must be a string' })
  @IsDefined({ message: 'concurrency.key is required' })
  key: string;

  @ApiProperty({ minimum: 1, maximum: MAX_RUNS_PER_KEY, example: 1, description: 'At most this many runs per key.' })
  @Max(MAX_RUNS_PER_KEY)
  @Min(1)
  @IsInt({ message: 'concurrency.limit must be an integer' })
  @IsDefined({ message: 'concurrency.limit is required' })
  limit: number;
}
