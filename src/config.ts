import { join } from 'node:path';
import { DEFAULT_SNAPSHOT_EVERY } from './actors/actor-registry';
import { AccessConfig, loadAccessConfig } from './access/access-config';
import { ProviderConfig, loadProviderConfig } from './models/provider-config';
import { ToolsConfig, loadToolsConfig } from './tools/tools-config';
import { integer, oneOf } from './shared/env';

export const APP_CONFIG = Symbol('AppConfig');

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `esdb://…`: use EventStoreDB; unset: the embedded SQLite store in `dataDir`. */
  eventStoreUrl?: string;
  /** Upper bound on each EventStoreDB call, so an unreachable store fails fast with a 503. */
  eventStoreDeadlineMs: number;
  /** Prefixes every stream name, so several deployments can share one EventStoreDB. */
  streamPrefix: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** How long a write waits for the read models to show it before answering anyway. */
  readYourWritesTimeoutMs: number;
  actorCacheSize: number;
  /** A stream's snapshot is written once its state is this many events past the last one; 0: no snapshots. */
  snapshotEvery: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** Whether this instance runs the cron schedules (any number of instances may; each tick runs once). */
  schedulerEnabled: boolean;
  /** At start, the latest tick missed while the service was down still runs if at most this old; 0: never. */
  scheduleCatchUpWindowMs: number;
  /** How often a server-sent events response gets a comment line, so that proxies keep it open. */
  sseHeartbeatMs: number;
  providers: ProviderConfig;
  tools: ToolsConfig;
  runs: RunsConfig;
  access: AccessConfig;
  /** What a request may be and how long it may take; applied in `src/http/http-server.ts` and `src/http/json-body.ts`. */
  http: HttpLimits;
}

/** Limits on requests and connections, configured here once and applied in `src/http/http-server.ts` and `src/http/json-body.ts`. */
export interface HttpLimits {
  /** Largest request body accepted; a larger one is a 413. */
  bodyLimitBytes: number;
  /** Longest path parameter (such as an id) the router accepts; a longer one is a 414. Fixed. */
  maxParamLength: number;
  /** Deepest nesting of objects and arrays in a JSON body; a deeper one is a 400. */
  jsonMaxDepth: number;
  /** Time for a client to send a whole request, headers and body; past it a 408 and the connection closes. */
  requestTimeoutMs: number;
  /** A connection that sends and receives nothing for this long is closed (0: never). */
  connectionIdleTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** On shutdown, requests still open after this long are cut off, so the process always stops. */
  shutdownTimeoutMs: number;
  /** Behind a reverse proxy: take the client's address from `X-Forwarded-For` (for rate limits and logs). */
  trustProxy: boolean;
}

/** How this instance executes runs. */
export interface RunsConfig {
  /** Whether this instance executes runs (any number of instances may: each run executes once). */
  executorEnabled: boolean;
  /** Agent runs executing at once in this instance; the others wait, first in, first out. */
  concurrency: number;
  /** A run still going after this long fails with `timeout`. */
  timeoutMs: number;
  /** Upper bound on `Prefer: wait=<seconds>`. */
  waitMaxSeconds: number;
  /** A run whose executor has not renewed its lease for this long is ended as `interrupted`. */
  leaseMs: number;
}

/** Reads the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    dataDir: env.DATA_DIR ?? join(process.cwd(), 'data'),
    eventStoreUrl: eventStoreUrl(env.EVENTSTORE_URL),
    eventStoreDeadlineMs: integer(env, 'EVENTSTORE_DEADLINE_MS', 5000, 100, 600_000),
    streamPrefix: streamPrefix(env.STREAM_PREFIX),
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL'),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 5000, 0, 60_000),
    actorCacheSize: integer(env, 'ACTOR_CACHE_SIZE', 10_000, 1, 10_000_000),
    snapshotEvery: integer(env, 'SNAPSHOT_EVERY', DEFAULT_SNAPSHOT_EVERY, 0, 1_000_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug'] as const, 'log'),
    schedulerEnabled: oneOf(env, 'SCHEDULER_ENABLED', ['true', 'false'] as const, 'true') === 'true',
    scheduleCatchUpWindowMs: integer(env, 'SCHEDULE_CATCH_UP_WINDOW_MS', 300_000, 0, 31 * 24 * 3_600_000),
    http: {
      bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
      maxParamLength: 100,
      jsonMaxDepth: integer(env, 'JSON_MAX_DEPTH', 64, 2, 1000),
      requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      connectionIdleTimeoutMs: integer(env, 'CONNECTION_IDLE_TIMEOUT_MS', 120_000, 0, 3_600_000),
      keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
      shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
      trustProxy: oneOf(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true',
    },
    sseHeartbeatMs: integer(env, 'SSE_HEARTBEAT_MS', 15_000, 10, 3_600_000),
    providers: loadProviderConfig(env),
    tools: loadToolsConfig(env),
    access: loadAccessConfig(env),
    runs: {
      executorEnabled: oneOf(env, 'RUN_EXECUTOR_ENABLED', ['true', 'false'] as const, 'true') === 'true',
      concurrency: integer(env, 'RUN_CONCURRENCY', 10, 1, 10_000),
      timeoutMs: integer(env, 'RUN_TIMEOUT_MS', 600_000, 100, 24 * 3_600_000),
      waitMaxSeconds: integer(env, 'RUN_WAIT_MAX_SECONDS', 60, 0, 3600),
      leaseMs: integer(env, 'RUN_LEASE_MS', 30_000, 300, 3_600_000),
    },
  };
}

function eventStoreUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^esdb(\+discover)?:\/\//.test(raw))
    throw new Error('EVENTSTORE_URL must be an esdb:// or esdb+discover:// connection string');
  return raw;
}

function streamPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '';
  if (!/^[A-Za-z0-9_.-]+$/.test(raw) || raw.startsWith('$')) {
    throw new Error('STREAM_PREFIX may hold only letters, digits, "_", "." and "-"');
  }
  return raw;
}
