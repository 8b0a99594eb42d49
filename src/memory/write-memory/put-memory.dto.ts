import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsInt, Max, Min } from 'class-validator';
import { JSON_VALUE } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';
import { MAX_MEMORY_VALUE_BYTES } from '../memory-address';

/** The longest time to live: ten years. */
const MAX_TTL_SECONDS = 315_360_000;

export class PutMemoryDto {
  @ApiProperty({
    ...JSON_VALUE,
    example: { diet: 'vegetarian', city: 'Lisbon' },
    description: `Any JSON, at most ${MAX_MEMORY_VALUE_BYTES / 1024} KB.`,
  })
  @Allow()
  value: unknown;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_TTL_SECONDS,
    example: 86_400,
    description: 'Seconds it lives from this put; then it is gone from reads and search. Default: for good.',
  })
  @Max(MAX_TTL_SECONDS)
  @Min(1)
  @IsInt({ message: 'ttlSeconds must be an integer' })
  @Optional()
  ttlSeconds?: number;
}
