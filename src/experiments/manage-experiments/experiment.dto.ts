import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NAME_LENGTH, idField } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';
import { FreeFormObject } from '../../http/free-form-json';
import { EXPERIMENT_MODES, ExperimentMode } from '../experiment';

export const MAX_EXPERIMENT_CONCURRENCY = 50;
export const MAX_EXPERIMENT_SCORERS = 20;

/** What an experiment tries: an agent (for an agent dataset) or a workflow (for a workflow dataset), one of them. */
export class ExperimentTargetDto {
  @ApiPropertyOptional({
    maxLength: NAME_LENGTH,
    description: 'The name of the active agent each item of an agent dataset is run on (or `workflow`).',
  })
  @MaxLength(NAME_LENGTH)
  @IsString({ message: 'target.agent must be a string' })
  @Optional()
  agent?: string;

  @ApiPropertyOptional({
    maxLength: NAME_LENGTH,
    description:
      'The workflow each item of a workflow dataset is run on, by name (one workflow not archived must have it) or by id (or `agent`).',
  })
  @MaxLength(NAME_LENGTH)
  @IsString({ message: 'target.workflow must be a string' })
  @Optional()
  workflow?: string;

  @ApiPropertyOptional({
    minimum: 1,
    description:
      "The agent's or workflow's version each item runs on. Default: its current one (the version is kept for every item).",
  })
  @Min(1, { message: 'target.version must be at least 1' })
  @IsInt({ message: 'target.version must be an integer' })
  @Optional()
  version?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "A change to try without saving it: a merge patch of the agent's definition (as PATCH /v1/agents/{id} takes, `name` aside) or of the workflow's (as PATCH /v1/workflows/{id} takes: `steps`, `outputStep`, `inputSchema`), checked as a PATCH is.",
    example: { instructions: 'Answer in one sentence.', model: 'openai/gpt-4o-mini' },
  })
  @FreeFormObject({ message: 'target.overrides must be an object' })
  overrides?: Record<string, unknown>;
}

export class CreateExperimentDto {
  @ApiProperty({
    ...idField('dataset'),
    description:
      "The dataset whose items are run: an agent dataset's on `target.agent`, a workflow dataset's on `target.workflow`.",
  })
  @Matches(/^dataset_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'dataset must be a dataset id (dataset_ and a ULID)' })
  @IsString({ message: 'dataset must be a string' })
  @IsDefined({ message: 'dataset is required' })
  dataset: string;

  @ApiPropertyOptional({
    minimum: 1,
    description: "The dataset's version whose items are run. Default: its current one.",
  })
  @Min(1, { message: 'datasetVersion must be at least 1' })
  @IsInt({ message: 'datasetVersion must be an integer' })
  @Optional()
  datasetVersion?: number;

  @ApiProperty({ type: ExperimentTargetDto })
  @ValidateNested()
  @Type(() => ExperimentTargetDto)
  @IsObject({ message: 'target must be an object' })
  @IsDefined({ message: 'target is required' })
  target: ExperimentTargetDto;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: NAME_LENGTH },
    minItems: 1,
    maxItems: MAX_EXPERIMENT_SCORERS,
    description: 'The names of the active scorers each answer is scored by.',
  })
  @MaxLength(NAME_LENGTH, { each: true })
  @IsString({ each: true, message: 'each of scorers must be a name' })
  @ArrayMaxSize(MAX_EXPERIMENT_SCORERS)
  @ArrayMinSize(1, { message: 'scorers must name at least one scorer' })
  @IsArray({ message: 'scorers must be an array' })
  @IsDefined({ message: 'scorers is required' })
  scorers: string[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_EXPERIMENT_CONCURRENCY,
    default: 5,
    description: 'How many items run at once (within RUN_CONCURRENCY). Default: 5.',
  })
  @Max(MAX_EXPERIMENT_CONCURRENCY)
  @Min(1, { message: 'concurrency must be at least 1' })
  @IsInt({ message: 'concurrency must be an integer' })
  @Optional()
  concurrency?: number;

  @ApiPropertyOptional({
    enum: EXPERIMENT_MODES,
    default: 'live',
    description:
      "`live`: each item's tools are called. `recorded`: for an item made from a run, a tool call that run made (same tool, same arguments) gets the result it got then, instead of calling the tool; a call it did not make calls the tool and counts as a miss. Only the model varies.",
  })
  @IsIn(EXPERIMENT_MODES, { message: 'mode must be live or recorded' })
  @Optional()
  mode?: ExperimentMode;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
    description: "The least mean each scorer named must reach: the experiment's `passed` is false when one is below.",
  })
  @FreeFormObject({ message: 'thresholds must be an object of scorer names and numbers from 0 to 1' })
  thresholds?: Record<string, number>;
}
