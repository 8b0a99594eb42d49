import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DescriptionField, NameField } from '../../http/resource-fields';
import { Allow, IsBoolean, IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { JSON_VALUE, NAME_LENGTH, TEXT_LENGTH } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';
import { SCORER_TYPES, ScorerType } from '../scorer';
import { DESCRIPTION_LENGTH, RUBRIC_LENGTH } from '../scorer.schema';

/** A scorer: its name and type, and the fields its type reads (the others are refused). */
export class CreateScorerDto {
  @NameField('mentions the refund policy', 'Unique among active scorers.')
  name: string;

  @DescriptionField(DESCRIPTION_LENGTH)
  description?: string;

  @ApiProperty({ enum: SCORER_TYPES })
  @IsIn(SCORER_TYPES, { message: `type must be one of ${SCORER_TYPES.join(', ')}` })
  @IsDefined({ message: 'type is required' })
  type: ScorerType;

  @ApiPropertyOptional({ description: '`exact` and `contains`: whether case counts. Default: false.' })
  @IsBoolean({ message: 'caseSensitive must be a boolean' })
  @Optional()
  caseSensitive?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`json_schema`: the JSON Schema the output, parsed as JSON, must match.',
  })
  @FreeFormObject({ message: 'schema must be a JSON Schema object' })
  schema?: Record<string, unknown>;

  @ApiPropertyOptional({
    ...JSON_VALUE,
    description:
      '`rule`: a JSON Logic rule over `{input, output, outputObject, expected, run: {toolCalls, usage, durationMs}}`; true is 1, false 0, a number from 0 to 1 the score.',
  })
  @Allow()
  rule?: unknown;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: '`judge`: the name of the agent that judges.' })
  @MaxLength(NAME_LENGTH)
  @IsString({ message: 'agent must be a string' })
  @Optional()
  agent?: string;

  @ApiPropertyOptional({ maxLength: RUBRIC_LENGTH, description: '`judge`: what a good answer is.' })
  @MaxLength(RUBRIC_LENGTH)
  @IsString({ message: 'rubric must be a string' })
  @Optional()
  rubric?: string;
}

/** An answer to score now, as an experiment would: to try a scorer before using it. */
export class ScoreAnswerDto {
  @ApiPropertyOptional({
    ...JSON_VALUE,
    description: "What was asked (an agent item's `{task, context}`). Default: null.",
  })
  @Allow()
  input?: unknown;

  @ApiPropertyOptional({
    type: String,
    maxLength: TEXT_LENGTH,
    nullable: true,
    description: 'The answer. Default: null.',
  })
  @MaxLength(TEXT_LENGTH)
  @IsString({ message: 'output must be a string' })
  @Optional()
  output?: string | null;

  @ApiPropertyOptional({ ...JSON_VALUE, description: 'The structured answer, when there is one.' })
  @Allow()
  outputObject?: unknown;

  @ApiPropertyOptional({ ...JSON_VALUE, description: 'The answer expected. Default: null (none).' })
  @Allow()
  expected?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "What a rule reads of the answer's run: `{toolCalls, usage, durationMs}`. Default: none.",
  })
  @FreeFormObject({ message: 'run must be an object' })
  run?: Record<string, unknown>;
}
