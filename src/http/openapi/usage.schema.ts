import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A run's tokens, and their cost when its model has a price. */
export class UsageSchema {
  @ApiProperty()
  inputTokens: number;

  @ApiProperty()
  outputTokens: number;

  @ApiPropertyOptional({
    description:
      "What the tokens cost in US dollars, when the run's model has a price (built in, or `MODEL_PRICES_FILE`).",
    example: 0.00042,
  })
  costUsd?: number;
}
