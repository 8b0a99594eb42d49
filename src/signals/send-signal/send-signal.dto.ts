import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { JSON_VALUE } from '../../http/openapi/fields';
import { NOT_BLANK, Optional } from '../../http/validation';

/** The most a signal's data may be, as JSON. */
export const MAX_SIGNAL_DATA_BYTES = 64 * 1024;

export class SendSignalDto {
  @ApiProperty({ maxLength: 200, example: 'order.paid', description: 'The name the wait steps wait for.' })
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'name must not be empty' })
  @IsString({ message: 'name must be a string' })
  @IsDefined({ message: 'name is required' })
  name: string;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'order_1234',
    description: 'Reaches only the waits for this key (and those with none). Default: none (only waits with no key).',
  })
  @MaxLength(200)
  @IsString({ message: 'key must be a string' })
  @Optional()
  key?: string;

  @ApiPropertyOptional({
    ...JSON_VALUE,
    description: `Any JSON (at most ${MAX_SIGNAL_DATA_BYTES / 1024} KB): the \`outputObject\` of each step it ends, and as JSON its \`output\`. Default: null.`,
  })
  @Allow()
  data?: unknown;
}
