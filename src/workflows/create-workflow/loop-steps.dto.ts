import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../http/validation';
import { MAP_OVER } from '../../shared/step-graph';

/** The most iterations a repeating step may run. */
export const MAX_REPEATS = 100;

/** A repeating step's `repeat`: the rule that ends it, and the most iterations. */
export class StepRepeatDto {
  @ApiProperty({
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'boolean' }],
    example: { '>=': [{ var: 'outputObject.score' }, 8] },
    description:
      'A JSON Logic rule over `{output, outputObject, iteration}` (the iteration that just ended, from 1): once it holds, the step ends with that answer.',
  })
  @IsDefined({ message: 'repeat.until is required' })
  until: Record<string, unknown> | boolean;

  @ApiProperty({
    minimum: 1,
    maximum: MAX_REPEATS,
    example: 5,
    description: 'The most iterations; the last one without the rule holding fails the step with repeat_exhausted.',
  })
  @Max(MAX_REPEATS)
  @Min(1)
  @IsInt({ message: 'repeat.max must be an integer' })
  @IsDefined({ message: 'repeat.max is required' })
  max: number;
}

/** The most items of a map step that may run at once. */
export const MAX_MAP_CONCURRENCY = 1000;

/** A map step's `map`: the list its agent runs over, and how many of its items run at once. */
export class MapDto {
  @ApiProperty({
    maxLength: 500,
    pattern: MAP_OVER.source,
    example: 'input.orders',
    description:
      'Where the list is: `input.<path>`, or `steps.<id>.outputObject.<path>` (`steps.<id>.output` also takes a step output that is a JSON array). The step named must be among the needs. Not a list when the step begins: it fails with map_not_a_list; longer than WORKFLOW_MAX_MAP_ITEMS: map_too_many_items.',
  })
  @MaxLength(500)
  @Matches(MAP_OVER, {
    message: 'map.over must be a path: input.<path>, or steps.<id>.output or steps.<id>.outputObject and a path',
  })
  @IsString({ message: 'map.over must be a string' })
  @IsDefined({ message: 'map.over is required' })
  over: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_MAP_CONCURRENCY,
    description: 'How many items run at once (each is an agent run, under RUN_CONCURRENCY too). Default: 1.',
  })
  @Max(MAX_MAP_CONCURRENCY)
  @Min(1)
  @IsInt({ message: 'map.concurrency must be an integer' })
  @Optional()
  concurrency?: number;
}
