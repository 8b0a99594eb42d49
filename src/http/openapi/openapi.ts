import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ParameterObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { HEAD_LENGTH } from './fields';
import { COMMON_PROBLEMS, ProblemSchema, problemContent } from './problem.schema';

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
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // An opaque key, not a JWT.
      bearerFormat: 'API key',
      description: 'An API key, when the service has API_KEYS set.',
    })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'token',
        description: 'METRICS_TOKEN, for /metrics when the service has it set.',
      },
      'metricsToken',
    )
    .addTag('agents', 'Agents, and runs of an agent on a task')
    .addTag('workflows', 'Workflows of agent steps, their triggers and runs')
    .addTag('signals', 'What happened outside, sent to the workflow runs that wait for it')
    .addTag('memory', 'JSON items by namespace and key, every version kept, searched by their words or their meaning')
    .addTag(
      'subjects',
      'The people data is about: what the service holds of one, and forgetting it (its key destroyed)',
    )
    .addTag('threads', 'Conversations with an agent that continue across runs')
    .addTag('events', 'The event log, and the history of each resource')
    .addTag('webhooks', 'Events sent to your URLs as they happen (Standard Webhooks)')
    .addTag(
      'experiments',
      "A dataset's items run on an agent or a workflow and scored: whether a change made it better",
    )
    .addTag('scorers', 'How an answer is judged: by code, by a JSON Logic rule, or by a judge agent')
    .addTag('datasets', 'Inputs with the answers expected, given by hand or made from runs, to evaluate a change on')
    .addTag('tools', 'The tools agents may use')
    .addTag('providers', 'The model providers: configured or not, and their models')
    .addTag('usage', 'Runs, tokens and what they cost')
    .addTag('scores', 'Live scores of runs, by agent, scorer and day')
    .addTag('operations', 'Health and metrics')
    .addTag('protocols', 'The service as an MCP server and an A2A server (see docs/protocols.md)')
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ProblemSchema] });
  const { maxParamLength } = app.get<AppConfig>(APP_CONFIG).http;
  (document.components ??= {}).headers = HEADERS;
  withoutTypeBesideOneOf(document.components.schemas ?? {});
  for (const [path, item] of Object.entries(document.paths)) {
    // The protocols' routes are guarded as the API is, but speak their own protocols: no idempotency keys, and a
    // read key may post to them (they refuse its calls, sends and cancels themselves).
    const protocol = path === '/mcp' || path.startsWith('/a2a/') || path === '/.well-known/agent-card.json';
    const open = !path.startsWith('/v1/') && !protocol;
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      // /metrics takes METRICS_TOKEN when one is set; the other open routes take nothing.
      operation.security = path === METRICS_PATH ? [{}, { metricsToken: [] }] : open ? [] : [{ bearer: [] }];
      const statuses = [...(open ? [] : COMMON_PROBLEMS), 400, 431, 500];
      if (operation.parameters?.some((parameter: { in?: string }) => parameter.in === 'path')) statuses.push(414);
      if (operation.requestBody) statuses.push(408, 413, 415);
      if (!open && !protocol && method !== 'get') statuses.push(403);
      if (path === METRICS_PATH) statuses.push(401);
      if ((method === 'post' || method === 'patch') && !protocol) {
        statuses.push(409, 422);
        (operation.parameters ??= []).push(IDEMPOTENCY_KEY);
      }
      for (const status of statuses) {
        operation.responses[status] ??= {
          description: STATUS_TEXT[status],
          content: problemContent(status),
        };
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, ResponseObject>)) {
        const headers = { ...response.headers, ...headersOf(Number(status), open) };
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
        boundLength(parameter, parameter.in === 'path' ? maxParamLength : HEAD_LENGTH);
      }
    }
  }
  return document;
}

const METRICS_PATH = '/metrics';

/**
 * A property that may hold any JSON value is declared with `oneOf` (JSON_VALUE); the generator adds the `object`
 * its TypeScript type reflects as beside it, which would allow objects only.
 */
function withoutTypeBesideOneOf(schemas: Record<string, unknown>): void {
  for (const schema of Object.values(schemas) as Array<{ properties?: Record<string, Record<string, unknown>> }>) {
    for (const property of Object.values(schema.properties ?? {})) {
      if (property.oneOf && property.type === 'object') delete property.type;
    }
  }
}

/** The headers an answer carries: the rate limit's on every limited route's, Retry-After where a retry may follow. */
function headersOf(status: number, open: boolean): ResponseObject['headers'] {
  const headers: NonNullable<ResponseObject['headers']> = {};
  const limited = !open && (status < 300 || (status >= 400 && status < 500));
  if (limited) for (const name of RATE_LIMIT_HEADERS) headers[name] = { $ref: `#/components/headers/${name}` };
  if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  return headers;
}

/** Path parameters are bounded by the router (414 past it), query and header values by the size of a request head. */
function boundLength(parameter: ParameterObject, maxLength: number): void {
  const schema = parameter.schema as { type?: string; maxLength?: number; enum?: unknown[] } | undefined;
  if (schema?.type === 'string' && schema.maxLength === undefined && schema.enum === undefined) {
    schema.maxLength = maxLength;
  }
}

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const counter = (description: string) => ({
  description,
  schema: { type: 'integer' as const, format: 'int32', minimum: 0, maximum: 2_147_483_647 },
});

/** Sent when RATE_LIMIT is set (the default): requests per window per key, or per client address without one. */
const HEADERS = {
  'X-RateLimit-Limit': counter('Requests allowed per window (RATE_LIMIT); sent while the service limits requests.'),
  'X-RateLimit-Remaining': counter('Requests left in the current window.'),
  'X-RateLimit-Reset': counter('Seconds until the current window ends.'),
  'Retry-After': counter('Seconds to wait before trying again.'),
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and body within 24 hours gets the first response back and writes nothing (409 while the first is in flight or when its answer was about a subject since forgotten, 422 for another body).',
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
  500: 'An unexpected error in the service (a bug): retrying may not help',
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
