import { STATUS_CODES } from 'node:http';
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
  502: 'What the request needed of a model or an agent failed (a judge gave no score)',
  503: 'The event store is unavailable; retry after Retry-After seconds',
};

/** One example per status, so `/docs` shows what each answer looks like rather than one validation error for all. */
const EXAMPLES: Record<number, { type: string; detail: string; errors?: FieldErrorSchema[] }> = {
  400: {
    type: 'validation-error',
    detail: 'The request is not valid',
    errors: [
      { path: 'trigger.cron', message: 'cron has an invalid hour field "25" (0-23): Field value (25) is out of range' },
    ],
  },
  401: { type: 'unauthorized', detail: 'An API key is needed: send "Authorization: Bearer <key>"' },
  403: { type: 'forbidden', detail: 'This API key may only read' },
  404: { type: 'not-found', detail: 'Agent agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J does not exist' },
  409: {
    type: 'conflict',
    detail:
      'Agent "researcher" is used by workflows that are not archived: "digest" (wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP, step 0). Change or archive them first, or archive anyway with ?force=true (their runs will then fail at that step)',
  },
  412: {
    type: 'precondition-failed',
    detail: 'Agent agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J is at version 3, not the one If-Match names; read it again',
  },
  413: { type: 'payload-too-large', detail: 'The body is larger than the limit of 1048576 bytes' },
  415: { type: 'unsupported-media-type', detail: 'Send the body as application/json' },
  422: {
    type: 'unprocessable',
    detail: 'Every step must name an existing agent',
    errors: [{ path: 'steps[1].agent', message: 'no agent is named "writer"' }],
  },
  429: { type: 'too-many-requests', detail: 'More than 100 requests in 1 s; retry after Retry-After seconds' },
  500: { type: 'internal-error', detail: 'An unexpected error occurred' },
  502: {
    type: 'judge-failed',
    detail:
      'The judge run agentrun_01JDQ8ZK5N2B3C4D5E6F7G8H9K of scorer polite gave no score (provider_error: refused)',
  },
  503: { type: 'store-unavailable', detail: 'The event store is unavailable; try again shortly' },
  408: { type: 'request-timeout', detail: 'The request was not received in full within 30000 ms' },
  414: { type: 'uri-too-long', detail: 'A path segment is longer than the limit of 200 characters' },
  431: { type: 'request-header-fields-too-large', detail: 'The request line and headers are larger than the limit' },
};

/** The problem+json content of an answer with this status, with its example. */
export function problemContent(status: number) {
  const example = EXAMPLES[status];
  const schema = { $ref: '#/components/schemas/ProblemSchema' };
  if (!example) return { [PROBLEM_CONTENT_TYPE]: { schema } };
  const { type, ...rest } = example;
  return {
    [PROBLEM_CONTENT_TYPE]: {
      schema,
      example: { type: `/problems/${type}`, title: STATUS_CODES[status], status, ...rest },
    },
  };
}

/** Documents the problem+json answers a route may give, besides the ones every route may give. */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: WHEN[status],
        content: problemContent(status),
      }),
    ),
  );
}

/** Answers any `/v1` route may give. */
export const COMMON_PROBLEMS = [401, 429, 503];
