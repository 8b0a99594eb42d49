import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  registerDecorator,
} from 'class-validator';
import { NOT_BLANK } from '../../agents/create-agent/create-agent.dto';
import { cronProblem, isTimeZone } from '../cron';

function IsCron(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCron',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => {
          const timezone = (args.object as TriggerDto).timezone;
          return (
            typeof value === 'string' &&
            cronProblem(value, isTimeZone(timezone ?? 'UTC') ? timezone : 'UTC') === undefined
          );
        },
        defaultMessage: (args: ValidationArguments) =>
          typeof args.value === 'string' ? `cron ${cronProblem(args.value)}` : 'cron must be a string',
      },
    });
}

function IsIanaTimeZone(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isIanaTimeZone',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isTimeZone(value),
        defaultMessage: () => 'timezone must be an IANA time zone name, e.g. "Europe/Berlin"',
      },
    });
}

/** `cron` and `timezone` belong to schedule triggers only. */
function OnlyForSchedule(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'onlyForSchedule',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          value === undefined || (args.object as TriggerDto).type === 'schedule',
        defaultMessage: (args: ValidationArguments) => `${args.property} is only allowed when type is "schedule"`,
      },
    });
}

export class TriggerDto {
  @IsIn(['schedule', 'manual'], { message: 'type must be "schedule" or "manual"' })
  @IsDefined({ message: 'type is required' })
  type: 'schedule' | 'manual';

  @OnlyForSchedule()
  @ValidateIf((trigger: TriggerDto) => trigger.type === 'schedule')
  @IsCron()
  cron?: string;

  @OnlyForSchedule()
  @ValidateIf((trigger: TriggerDto) => trigger.timezone !== undefined)
  @IsIanaTimeZone()
  timezone?: string;
}

export class StepDto {
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'agent must not be empty' })
  @IsString()
  @IsDefined({ message: 'agent is required' })
  agent: string;

  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'action must not be empty' })
  @IsString()
  @IsDefined({ message: 'action is required' })
  action: string;
}

export class CreateWorkflowDto {
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'name must not be empty' })
  @IsString()
  @IsDefined({ message: 'name is required' })
  name: string;

  @ValidateNested()
  @IsObject({ message: 'trigger must be an object' })
  @IsOptional()
  @Type(() => TriggerDto)
  trigger: TriggerDto = Object.assign(new TriggerDto(), { type: 'manual' });

  @ValidateNested({ each: true })
  @IsObject({ each: true, message: 'each step must be an object' })
  @ArrayMaxSize(100)
  @ArrayMinSize(1, { message: 'steps must have at least one step' })
  @IsArray()
  @IsDefined({ message: 'steps is required' })
  @Type(() => StepDto)
  steps: StepDto[];
}
