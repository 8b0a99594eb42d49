import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { NOT_BLANK, Optional } from '../../http/validation';

/** The longest any step may wait or sleep: a year. */
export const MAX_WAIT_MS = 31_536_000_000;
export const SIGNAL_NAME_LENGTH = 200;

/** A wait step's `wait`: the signal it waits for, and how long it may. */
export class WaitDto {
  @ApiProperty({ maxLength: SIGNAL_NAME_LENGTH, example: 'order.paid', description: 'The name of the signal.' })
  @MaxLength(SIGNAL_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'wait.signal must not be empty' })
  @IsString({ message: 'wait.signal must be a string' })
  @IsDefined({ message: 'wait.signal is required' })
  signal: string;

  @ApiPropertyOptional({
    maxLength: 500,
    example: '{{input.orderId}}',
    description:
      'Only a signal with this key ends the wait: a template over the input and the earlier steps, as an action is, filled in when the wait begins (at most 200 characters then). Default: a signal of that name with any key.',
  })
  @MaxLength(500)
  @IsString({ message: 'wait.key must be a string' })
  @Optional()
  key?: string;

  @ApiPropertyOptional({
    minimum: 1000,
    maximum: MAX_WAIT_MS,
    description: 'How long it may wait, in ms, before the step fails with signal_timeout. Default: no limit.',
  })
  @Max(MAX_WAIT_MS)
  @Min(1000)
  @IsInt({ message: 'wait.timeoutMs must be an integer' })
  @Optional()
  timeoutMs?: number;
}

/** A sleep step's `sleep`: `ms`, or `until` (one of them). */
export class SleepDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_WAIT_MS, example: 86_400_000, description: 'How long, in ms.' })
  @Max(MAX_WAIT_MS)
  @Min(1)
  @IsInt({ message: 'sleep.ms must be an integer' })
  @Optional()
  ms?: number;

  @ApiPropertyOptional({
    maxLength: 500,
    example: '{{input.remindAt}}',
    description:
      'Until when: a template over the input and the earlier steps that must give an ISO time when the step begins (a time past wakes it at once; anything else fails it with sleep_until_invalid).',
  })
  @MaxLength(500)
  @Matches(NOT_BLANK, { message: 'sleep.until must not be empty' })
  @IsString({ message: 'sleep.until must be a string' })
  @Optional()
  until?: string;
}
