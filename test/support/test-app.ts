import { mkdtempSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { openApiDocument } from '../../src/http/openapi/openapi';
import { CoreOverrides } from '../../src/core.module';
import { OpenApiValidator } from './openapi-validator';
import { SequentialIds } from './sequential-ids';
import { StoreFixture } from './store-fixtures';
import { TestClock } from './test-clock';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  dataDir: string;
  clock: TestClock;
  ids: SequentialIds;
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export function temporaryDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'workflows-e2e-'));
}

/** The real service on a random loopback port, over real HTTP, with its data in `dataDir`. */
export interface TestAppOptions {
  dataDir?: string;
  clock?: TestClock;
  ids?: SequentialIds;
  /** The store to connect to (default: SQLite in `dataDir`). */
  fixture?: StoreFixture;
  store?: CoreOverrides['store'];
  /** Upper bound on each EventStoreDB call. */
  deadlineMs?: number;
  /** Environment variables the configuration is read from (none by default). */
  env?: NodeJS.ProcessEnv;
  /** First reconnect backoff of the EventStoreDB subscription. */
  retryInitialMs?: number;
  /** Overrides of the HTTP limits (short time limits keep tests fast). */
  http?: Partial<AppConfig['http']>;
  /** Tracing on, its spans handed to this exporter (an in-memory one) as they end. */
  spanExporter?: CoreOverrides['spanExporter'];
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? temporaryDataDir();
  const clock = options.clock ?? new TestClock();
  const ids = options.ids ?? new SequentialIds();
  const defaults = loadConfig(options.env ?? {});
  const config = {
    ...defaults,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'error' as const,
    http: { ...defaults.http, ...options.http },
  };
  const store =
    options.store ??
    options.fixture?.connect({ deadlineMs: options.deadlineMs, retryInitialMs: options.retryInitialMs });
  const app = await createApp(config, { clock, ids, store, spanExporter: options.spanExporter });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // Every response a test reads through `request` must match the service's own OpenAPI document.
  const validator = new OpenApiValidator(openApiDocument(app) as never);
  return {
    app,
    url,
    dataDir,
    clock,
    ids,
    request: async (method, path, body, headers) => {
      const response = await request(url, method, path, body, headers);
      validator.check(method, path, response.status, response.headers.get('content-type'), response.body);
      return response;
    },
    close: () => app.close(),
  };
}

export async function request(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
