import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../problem';
import { COMMON_PROBLEMS, ProblemSchema } from './problem.schema';

export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';

/** The API description, made from the controllers and DTOs, with the answers every route may give added. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Workflows and agents')
    .setDescription(
      'Define AI agents and workflows of agent steps, run agents on tasks, trigger workflows by hand or on a schedule. ' +
        'Every error is RFC 9457 application/problem+json.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key, when the service has API_KEYS set.' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ProblemSchema] });
  for (const [path, item] of Object.entries(document.paths)) {
    const open = !path.startsWith('/v1/');
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      operation.security = open ? [] : [{ bearer: [] }];
      const statuses = [...(open ? [] : COMMON_PROBLEMS), 400, 431];
      if (operation.parameters?.some((parameter: { in?: string }) => parameter.in === 'path')) statuses.push(414);
      if (operation.requestBody) statuses.push(408, 413, 415);
      if (!open && method !== 'get') statuses.push(403);
      if (method === 'post' || method === 'patch') {
        statuses.push(409, 422);
        (operation.parameters ??= []).push(IDEMPOTENCY_KEY);
      }
      for (const status of statuses) {
        operation.responses[status] ??= {
          description: STATUS_TEXT[status],
          content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemSchema' } } },
        };
      }
    }
  }
  return document;
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and body within 24 hours gets the first response back and writes nothing (409 while the first is in flight, 422 for another body).',
  schema: { type: 'string' as const, maxLength: 255 },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid (see `errors`)',
  408: 'The request did not arrive in time',
  414: 'A path segment is too long',
  431: 'The request line and headers are too large',
  401: 'No API key, or one that is not valid',
  403: 'The API key may only read',
  409: 'A conflict with the state of the resource, or an Idempotency-Key still in flight',
  422: 'The request refers to something that cannot be used, or reuses an Idempotency-Key for another body',
  413: 'The body is too large',
  415: 'The body is not JSON',
  429: 'Too many requests; retry after Retry-After seconds',
  503: 'The event store is unavailable; retry after Retry-After seconds',
};

/** Serves the document at /v1/openapi.json and an interactive page for it at /docs; it is made on first request. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH.slice(1), app, () => openApiDocument(app), {
    jsonDocumentUrl: OPENAPI_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Workflows and agents API',
  });
}
