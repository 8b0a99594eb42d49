import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, ValidationArguments, registerDecorator } from 'class-validator';
import { cronProblem, isTimeZone } from '../../shared/cron-rules';

/** A workflow's trigger as a create or an update gives it: manual, or a schedule (a cron in a time zone). */

type TriggerField = 'cron' | 'timezone';

/** Longer than any five cron fields are written, or than any IANA zone's name. */
export const CRON_LENGTH = 256;
export const TIMEZONE_LENGTH = 64;

/** `cron` and `timezone` belong to schedule triggers; a schedule needs a valid cron in its time zone. */
function ScheduleField(field: TriggerField): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: `schedule-${field}`,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          problemWith(field, value, args.object as TriggerDto) === undefined,
        defaultMessage: (args: ValidationArguments) => problemWith(field, args.value, args.object as TriggerDto)!,
      },
    });
}

function problemWith(field: TriggerField, value: unknown, trigger: TriggerDto): string | undefined {
  if (trigger.type !== 'schedule')
    return value === undefined ? undefined : `${field} is only allowed when type is "schedule"`;
  const maxLength = field === 'cron' ? CRON_LENGTH : TIMEZONE_LENGTH;
  if (typeof value === 'string' && value.length > maxLength) {
    return `${field} must be at most ${maxLength} characters`;
  }
  if (field === 'timezone') {
    if (value === undefined) return undefined;
    return typeof value === 'string' && isTimeZone(value)
      ? undefined
      : 'timezone must be an IANA time zone name, e.g. "Europe/Berlin"';
  }
  if (value === undefined) return 'cron is required when type is "schedule", e.g. "0 9 * * 1-5"';
  if (typeof value !== 'string') return 'cron must be a string';
  const timezone = trigger.timezone !== undefined && isTimeZone(trigger.timezone) ? trigger.timezone : 'UTC';
  const problem = cronProblem(value, timezone);
  return problem && `cron ${problem}`;
}

export class TriggerDto {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  @IsIn(['schedule', 'manual'], { message: 'type must be "schedule" or "manual"' })
  @IsDefined({ message: 'type is required' })
  type: 'schedule' | 'manual';

  @ApiPropertyOptional({
    maxLength: CRON_LENGTH,
    example: '0 9 * * 1-5',
    description: 'Five cron fields; required for schedules.',
  })
  @ScheduleField('cron')
  cron?: string;

  @ApiPropertyOptional({
    maxLength: TIMEZONE_LENGTH,
    example: 'Europe/Berlin',
    description: 'An IANA time zone. Default: UTC.',
  })
  @ScheduleField('timezone')
  timezone?: string;
}
