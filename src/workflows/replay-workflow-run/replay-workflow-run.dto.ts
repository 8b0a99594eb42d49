import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, ValidationArguments, registerDecorator } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { LIST_ITEMS } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';

export const REPLAY_VERSIONS = ['original', 'current'] as const;
export type ReplayVersion = (typeof REPLAY_VERSIONS)[number];

/** A step named by its id (a string of at most 64 characters), or by its position, an integer from 0. */
function StepRef(): PropertyDecorator {
  const problem = (value: unknown): string | undefined => {
    if (typeof value === 'number') {
      return Number.isInteger(value) && value >= 0 ? undefined : 'fromStep as a number must be an integer from 0';
    }
    if (typeof value !== 'string') return 'fromStep must be a step id or a position (an integer from 0)';
    return value.length > 64 ? 'fromStep must be at most 64 characters' : undefined;
  };
  return (target, propertyName) =>
    registerDecorator({
      name: 'step-ref',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args: ValidationArguments) => problem(args.value)!,
      },
    });
}

export class ReplayWorkflowRunDto {
  @ApiProperty({
    oneOf: [
      { type: 'string', maxLength: 64 },
      // A workflow has at most LIST_ITEMS steps.
      { type: 'integer', format: 'int32', minimum: 0, maximum: LIST_ITEMS - 1 },
    ],
    example: 'write',
    description:
      'The step to run again, by id (a string) or by position (a number, counted from 0 as `{{steps.0.output}}` counts); it and every step that needs it run again.',
  })
  @StepRef()
  @IsDefined({ message: 'fromStep is required' })
  fromStep: string | number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The replay's input. Default: the input of the run replayed.",
  })
  @FreeFormObject({ message: 'input must be an object' })
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: REPLAY_VERSIONS,
    description:
      '`original` (default): the workflow as the run replayed ran it; `current`: the workflow as it is now (steps are matched by id).',
  })
  @IsIn(REPLAY_VERSIONS, { message: 'version must be "original" or "current"' })
  @Optional()
  version?: ReplayVersion;
}
