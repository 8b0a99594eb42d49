import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DescriptionField, NameField } from '../../http/resource-fields';
import { Allow, IsDefined, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { JSON_VALUE, RUN_ID_PATTERN } from '../../http/openapi/fields';
import { Optional } from '../../http/validation';
import { DATASET_TARGETS, DatasetTarget } from '../dataset';
import { DESCRIPTION_LENGTH } from '../dataset.schema';

export class CreateDatasetDto {
  @NameField('support questions')
  name: string;

  @DescriptionField(DESCRIPTION_LENGTH)
  description?: string;

  @ApiProperty({
    enum: DATASET_TARGETS,
    description:
      "What its items are run on: an agent (each input `{task, context?}`) or a workflow (each a trigger's input).",
  })
  @IsIn(DATASET_TARGETS, { message: `target must be one of ${DATASET_TARGETS.join(', ')}` })
  @IsDefined({ message: 'target is required' })
  target: DatasetTarget;
}

/** An item given by hand (`input`) or made from a run (`fromRunId`): one of the two. */
export class AddDatasetItemDto {
  @ApiPropertyOptional({
    ...JSON_VALUE,
    description: "An agent dataset's item: `{task, context?}`; a workflow dataset's: the trigger's input (an object).",
  })
  @ValidateIf((dto: AddDatasetItemDto) => dto.fromRunId === undefined)
  @IsDefined({ message: 'input or fromRunId is required' })
  input?: unknown;

  @ApiPropertyOptional({
    type: String,
    maxLength: 36,
    pattern: RUN_ID_PATTERN,
    description:
      'A run that has ended (an agent run for an agent dataset, a workflow run for a workflow one): its input, its output as `expected` unless given, and a link to it (`sourceRunId`).',
  })
  @Matches(new RegExp(RUN_ID_PATTERN), { message: 'fromRunId must be an agent run id or a workflow run id' })
  @IsString({ message: 'fromRunId must be a string' })
  @Optional()
  fromRunId?: string;

  @ApiPropertyOptional({
    ...JSON_VALUE,
    description: "The answer expected. Default: the run's output, or none (null).",
  })
  @Allow()
  expected?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form notes on the item (a tag, where it came from). Default: {}.',
  })
  @FreeFormObject({ message: 'metadata must be an object' })
  metadata: Record<string, unknown> = {};
}
