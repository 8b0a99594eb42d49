import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../problem';
import { HEAD_LENGTH } from './fields';

export class FieldErrorSchema {
  @ApiProperty({ example: 'steps[1].agent' })
  path: string;

  @ApiProperty({ example: 'agent must not be empty' })
  message: string;
}

/** RFC 9457 problem details, the body of every error. */
export class ProblemSchema {
  @ApiProperty({ maxLength: 100, example: '/problems/validation-error' })
  type: string;

  @ApiProperty({ maxLength: 64, example: 'Bad Request' })
  title: string;

  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ example: 'The request is not valid' })
  detail: string;

  @ApiPropertyOptional({
    maxLength: HEAD_LENGTH,
    example: '/v1/workflows',
    description: 'The path and query asked for.',
  })
  instance?: string;

  @ApiPropertyOptional({ type: [FieldErrorSchema] })
  errors?: FieldErrorSchema[];
}

const WHEN: Record<number, string> = {
  400: 'The request is not valid (see `errors`)',
  401: 'No API key, or one that is not valid',
  403: 'The API key may only read',
  404: 'No such resource',
  409: 'The change conflicts with the state of the resource',
  412: 'The resource has changed since the ETag given in If-Match',
  413: 'The body is too large',
  415: 'The body is not JSON',
  422: 'The request refers to something that cannot be used',
  429: 'Too many requests; retry after Retry-After seconds',
  503: 'The event store is unavailable; retry after Retry-After seconds',
};

/** Documents the problem+json answers a route may give, besides the ones every route may give. */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: WHEN[status],
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemSchema' } } },
      }),
    ),
  );
}

/** Answers any `/v1` route may give. */
export const COMMON_PROBLEMS = [401, 429, 503];
