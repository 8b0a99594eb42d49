import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsString,
  Max,
  Min,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { NOT_BLANK, Optional } from '../../http/validation';
import { OVERLAP_POLICIES, OverlapPolicy } from '../../domain/run-slots';
import { TriggerDto } from './trigger.dto';
import { ConcurrencyDto } from './concurrency.dto';
import { StepDto } from './step.dto';

/** How `inputSchema` is described wherever a workflow's definition is. */
export const INPUT_SCHEMA_FIELD = {
  type: 'object',
  additionalProperties: true,
  example: { type: 'object', properties: { topic: { type: 'string', maxLength: 200 } }, required: ['topic'] },
  description:
    'A JSON Schema (at most 64 KB, `"type": "object"` at its root) a trigger\'s `input` must match, or the trigger is a 400 naming the field. A step\'s `{{input.<field>}}` must name a field its `properties` declare. Default: none (any object).',
} as const;

/** The most runs of one workflow `maxConcurrentRuns` may allow at once. */
export const MAX_CONCURRENT_RUNS = 1000;

/** The overlap policy and run limits, as given. */
export function policyOf({
  overlap,
  maxConcurrentRuns,
  concurrency,
}: Pick<CreateWorkflowDto, 'overlap' | 'maxConcurrentRuns' | 'concurrency'>) {
  return {
    ...(overlap && { overlap }),
    ...(maxConcurrentRuns !== undefined && { maxConcurrentRuns }),
    ...(concurrency && { concurrency: { key: concurrency.key, limit: concurrency.limit } }),
  };
}

export class CreateWorkflowDto {
  @ApiProperty({ maxLength: 200, example: 'daily digest' })
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'name must not be empty' })
  @IsString()
  @IsDefined({ message: 'name is required' })
  name: string;

  @ApiPropertyOptional({ type: TriggerDto, description: 'Default: a manual trigger.' })
  @ValidateNested()
  @IsObject({ message: 'trigger must be an object' })
  @Optional()
  @Type(() => TriggerDto)
  trigger: TriggerDto = Object.assign(new TriggerDto(), { type: 'manual' });

  @ApiProperty({ type: [StepDto], minItems: 1, maxItems: 100 })
  @ValidateNested({ each: true })
  @IsObject({ each: true, message: 'each step must be an object' })
  @ArrayMaxSize(100)
  @ArrayMinSize(1, { message: 'steps must have at least one step' })
  @IsArray()
  @IsDefined({ message: 'steps is required' })
  @Type(() => StepDto)
  steps: StepDto[];

  @ApiPropertyOptional({
    maxLength: 64,
    example: 'edit',
    description:
      "The step (id or position) whose output is the run's output. Default: the last step by position among those that ran.",
  })
  @MaxLength(64)
  @IsString({ message: 'outputStep must be a step id' })
  @Optional()
  outputStep?: string;

  @ApiPropertyOptional({
    enum: OVERLAP_POLICIES,
    description:
      'What a schedule tick does while a run of the workflow is still going: `allow` (default) starts another run; `skip` records the tick as skipped (ScheduledTickSkipped); `buffer_one` keeps the newest such tick and starts it when the runs end.',
  })
  @IsIn(OVERLAP_POLICIES, { message: `overlap must be one of ${OVERLAP_POLICIES.join(', ')}` })
  @Optional()
  overlap?: OverlapPolicy;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_CONCURRENT_RUNS,
    description:
      'At most this many runs of the workflow at once; the others wait, `queued`, in the order they were triggered, and start as earlier runs end. Default: no limit.',
  })
  @Max(MAX_CONCURRENT_RUNS, { message: `maxConcurrentRuns must be at most ${MAX_CONCURRENT_RUNS}` })
  @Min(1, { message: 'maxConcurrentRuns must be at least 1' })
  @IsInt({ message: 'maxConcurrentRuns must be an integer' })
  @Optional()
  maxConcurrentRuns?: number;

  @ApiPropertyOptional({
    type: ConcurrencyDto,
    description:
      'At most `limit` runs at once per key, the key a template over the input (`{{input.customerId}}`): the runs of a key past its limit wait, `queued` and holding no slot, in the order they were triggered; runs of other keys are never held back by them. Works beside `maxConcurrentRuns`. Default: none.',
  })
  @ValidateNested()
  @IsObject({ message: 'concurrency must be an object' })
  @Optional()
  @Type(() => ConcurrencyDto)
  concurrency?: ConcurrencyDto;

  /** Free-form JSON, checked as a JSON Schema by checkInputSchema. */
  @ApiPropertyOptional(INPUT_SCHEMA_FIELD)
  @FreeFormObject({ message: 'inputSchema must be a JSON Schema object' })
  inputSchema?: Record<string, unknown>;
}
