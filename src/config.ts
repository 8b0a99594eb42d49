import { join } from 'node:path';
import { DEFAULT_SNAPSHOT_EVERY } from './actors/actor-registry';
import { AccessConfig, loadAccessConfig } from './access/access-config';
import { ProviderConfig, loadProviderConfig } from './models/provider-config';
import { ModelPrices, loadModelPrices } from './models/model-prices';
import { TelemetryConfig, loadTelemetryConfig } from './telemetry/telemetry-config';
import { ToolsConfig, loadToolsConfig } from './tools/tools-config';
import { TrustProxy, trustProxy } from './http/trust-proxy';
import { WebhooksConfig, loadWebhooksConfig } from './webhooks/webhooks-config';
import {
  Settings,
  choice,
  custom,
  fixed,
  flag,
  group,
  int,
  integerVariable,
  readSettings,
  variablesOf,
} from './shared/settings';

export const APP_CONFIG = Symbol('AppConfig');

/** The service's configuration; `SETTINGS` below says which variable sets each field, and what it means. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `esdb://…`: use EventStoreDB; unset: the embedded SQLite store in `dataDir`. */
  eventStoreUrl?: string;
  eventStoreDeadlineMs: number;
  streamPrefix: string;
  sqliteSynchronous: SqliteSynchronous;
  readYourWritesTimeoutMs: number;
  actorCacheSize: number;
  snapshotEvery: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  logFormat: 'json' | 'pretty';
  schedulerEnabled: boolean;
  scheduleCatchUpWindowMs: number;
  sseHeartbeatMs: number;
  /** The event log served to clients (`GET /v1/events`): pages and catch-ups bounded by bytes, and how many at once. */
  eventLog: { pageMaxBytes: number; maxCatchingUp: number };
  providers: ProviderConfig;
  /** Prices by model id, for each run's `usage.costUsd`. */
  prices: ModelPrices;
  tools: ToolsConfig;
  runs: RunsConfig;
  access: AccessConfig;
  webhooks: WebhooksConfig;
  /** Applied in `src/http/http-server.ts` and `src/http/json-body.ts`. */
  http: HttpLimits;
  telemetry: TelemetryConfig;
}

/** How the SQLite store syncs its commits (the adapter declares the same modes). */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

/** Limits on requests and connections, configured here once and applied in `src/http/http-server.ts` and `src/http/json-body.ts`. */
export interface HttpLimits {
  bodyLimitBytes: number;
  /** Longest path parameter (such as an id) the router accepts; a longer one is a 414. Fixed. */
  maxParamLength: number;
  jsonMaxDepth: number;
  jsonMaxValues: number;
  requestTimeoutMs: number;
  connectionIdleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  shutdownTimeoutMs: number;
  /**
   * Behind reverse proxies: how many there are, or their addresses and CIDRs; the client's address (for rate limits
   * and logs) is then taken from `X-Forwarded-For`, as far back as those proxies wrote it.
   */
  trustProxy: TrustProxy;
}

/** How this instance executes runs. */
export interface RunsConfig {
  executorEnabled: boolean;
  concurrency: number;
  timeoutMs: number;
  waitMaxSeconds: number;
  leaseMs: number;
  approvalTimeoutMs: number;
}

const HOUR = 3_600_000;
const MIB = 1024 * 1024;

/** Every environment variable: read in this order, and listed so in `docs/configuration.md`. */
const SETTINGS = {
  port: int('PORT', 3000, 0, 65535, 'HTTP port.'),
  host: custom({ name: 'HOST', default: '0.0.0.0', meaning: 'Address to listen on.' }, (env) => env.HOST ?? '0.0.0.0'),
  dataDir: custom(
    {
      name: 'DATA_DIR',
      note: '`./data`',
      meaning:
        'Folder for `events.sqlite` (the event log, on the SQLite store) and `read-models.sqlite` (the lists, on either store). One process per folder: a second one is refused at start (see [Errors and limits](api.md#errors-and-limits)).',
    },
    (env) => env.DATA_DIR ?? join(process.cwd(), 'data'),
  ),
  eventStoreUrl: custom(
    {
      name: 'EVENTSTORE_URL',
      meaning:
        'An `esdb://` or `esdb+discover://` connection string: the events go to EventStoreDB instead of SQLite (see [Running on EventStoreDB](eventstoredb.md)). Unset: the embedded SQLite store.',
    },
    (env) => eventStoreUrl(env.EVENTSTORE_URL),
  ),
  eventStoreDeadlineMs: int(
    'EVENTSTORE_DEADLINE_MS',
    5000,
    100,
    600_000,
    'Upper bound on each EventStoreDB call; past it the request answers `503`.',
  ),
  streamPrefix: custom(
    {
      name: 'STREAM_PREFIX',
      meaning:
        'Prefixes every stream name (`<prefix>-agent-…`), so several deployments can share one EventStoreDB. Letters, digits, `_`, `.` and `-`.',
    },
    (env) => streamPrefix(env.STREAM_PREFIX),
  ),
  sqliteSynchronous: choice(
    'SQLITE_SYNCHRONOUS',
    ['FULL', 'NORMAL'] as const satisfies readonly SqliteSynchronous[],
    'FULL',
    '`FULL`: a 2xx means the events are synced to disk and survive power loss. `NORMAL`: faster, and they survive a crash of the process, but the last commits before a power loss or OS crash can be lost.',
  ),
  readYourWritesTimeoutMs: int(
    'READ_YOUR_WRITES_TIMEOUT_MS',
    5000,
    0,
    60_000,
    'How long a write waits for the lists to show it before answering anyway (its events are durable either way).',
  ),
  actorCacheSize: int(
    'ACTOR_CACHE_SIZE',
    10_000,
    1,
    10_000_000,
    'How many aggregates stay cached in memory; the least recently used idle ones are dropped. Keep it above the number of scheduled workflows, or each tick re-reads their streams.',
  ),
  snapshotEvery: int(
    'SNAPSHOT_EVERY',
    DEFAULT_SNAPSHOT_EVERY,
    0,
    1_000_000_000,
    "A workflow's state is saved as a snapshot each time it has moved this many events past the last one, so that loading it reads the snapshot and at most this many events instead of the whole stream (see [Snapshots](architecture.md#snapshots)). `0`: no snapshots, neither read nor written.",
  ),
  logLevel: choice(
    'LOG_LEVEL',
    ['error', 'warn', 'log', 'debug'] as const,
    'log',
    'Which log lines are written: those of this level and the more severe ones.',
  ),
  logFormat: choice(
    'LOG_FORMAT',
    ['json', 'pretty'] as const,
    'json',
    '`json`: one JSON object a line, for log collectors. `pretty`: one readable, coloured line each (pino-pretty), for a terminal.',
  ),
  schedulerEnabled: flag(
    'SCHEDULER_ENABLED',
    true,
    'Whether this instance runs the cron schedules. Any number of instances may: each tick still runs once.',
  ),
  scheduleCatchUpWindowMs: int(
    'SCHEDULE_CATCH_UP_WINDOW_MS',
    300_000,
    0,
    31 * 24 * HOUR,
    'After downtime, the latest missed tick still runs if it is at most this old; `0` runs none. See [Schedules](api.md#schedules).',
    '5 min',
  ),
  http: {
    bodyLimitBytes: int(
      'BODY_LIMIT_BYTES',
      MIB,
      1024,
      100 * MIB,
      'Largest request body; a larger one is a `413`.',
      '1 MiB',
    ),
    maxParamLength: fixed(100),
    jsonMaxDepth: int(
      'JSON_MAX_DEPTH',
      64,
      2,
      1000,
      'Deepest nesting of objects and arrays in a JSON body (the body itself is level 1); deeper is a `400`.',
    ),
    jsonMaxValues: int(
      'JSON_MAX_VALUES',
      100_000,
      100,
      10_000_000,
      'Most values a JSON body may hold, all told: each array item and each member of an object. More is a `413`, answered before the body is parsed: what a body costs to parse, store and hand on grows with its values more than its bytes.',
      '100,000',
    ),
    requestTimeoutMs: int(
      'REQUEST_TIMEOUT_MS',
      30_000,
      100,
      HOUR,
      'Time for a client to send a whole request, headers and body; past it a `408` and the connection is closed.',
    ),
    connectionIdleTimeoutMs: int(
      'CONNECTION_IDLE_TIMEOUT_MS',
      120_000,
      0,
      HOUR,
      'A connection that sends and receives nothing for this long is closed; `0`: never. A long-lived response (a stream) must send something within it.',
    ),
    keepAliveTimeoutMs: int(
      'KEEP_ALIVE_TIMEOUT_MS',
      72_000,
      100,
      HOUR,
      'How long an idle keep-alive connection stays open between requests.',
    ),
    shutdownTimeoutMs: int(
      'SHUTDOWN_TIMEOUT_MS',
      10_000,
      0,
      600_000,
      'On `SIGTERM`/`SIGINT`, requests still open after this long are cut off, so the process always stops.',
    ),
    trustProxy: custom(
      {
        name: 'TRUST_PROXY',
        default: 'false',
        meaning:
          "Behind reverse proxies: their number (`1` for one proxy), or a comma-separated list of their addresses and CIDRs (`10.0.0.0/8,127.0.0.1`; also `loopback`, `linklocal`, `uniquelocal`), as Fastify's `trustProxy` takes them. The client's address (for rate limits and logs) is then read from `X-Forwarded-For` as far back as those proxies wrote it. `true` is refused: it would let any client choose its address.",
      },
      (env) => trustProxy(env),
    ),
  },
  sseHeartbeatMs: int(
    'SSE_HEARTBEAT_MS',
    15_000,
    10,
    HOUR,
    "How often a server-sent events response (`GET /v1/events`, a run's `/stream`) gets a comment line, so that proxies keep it open.",
  ),
  eventLog: {
    pageMaxBytes: int(
      'EVENTS_PAGE_MAX_BYTES',
      4 * MIB,
      64 * 1024,
      64 * MIB,
      'The most a JSON page of `GET /v1/events` holds, counted as the JSON of its events: a page that reaches it ends there (it says `more`), though it always holds one event. Event streams catch up in slices of at most a quarter of it.',
      '4 MiB',
    ),
    maxCatchingUp: int(
      'SSE_MAX_CATCHING_UP',
      16,
      1,
      10_000,
      'Reads of the log for clients at once, over all keys: slices of event streams that are catching up and JSON pages of `GET /v1/events`. The others wait their turn; this bounds the memory those reads hold (see [Security](security.md#how-much)).',
    ),
  },
  providers: group(loadProviderConfig, [
    {
      name: 'OPENAI_API_KEY',
      meaning: 'Key for `openai/<model>`. Unset: runs of such agents fail with `provider_not_configured`.',
    },
    {
      name: 'OPENAI_BASE_URL',
      note: "OpenAI's",
      meaning: 'Another address for the OpenAI API (Chat Completions).',
    },
    { name: 'ANTHROPIC_API_KEY', meaning: 'Key for `anthropic/<model>`.' },
    {
      name: 'ANTHROPIC_BASE_URL',
      default: 'https://api.anthropic.com',
      meaning: "The API's origin, as Anthropic's own SDK takes it; a value ending in `/v1` works too.",
    },
    {
      name: 'OLLAMA_BASE_URL',
      default: 'http://127.0.0.1:11434',
      meaning: 'Ollama, for `ollama/<model>` (its OpenAI-compatible API; with or without `/v1`); no key.',
    },
    {
      name: 'OPENAI_COMPATIBLE_BASE_URL',
      meaning:
        "A Chat Completions endpoint (streaming and tool calls), e.g. `http://host:8000/v1`, for `openai-compatible/<model>`: vLLM, LM Studio, llama.cpp's server and the like.",
    },
    { name: 'OPENAI_COMPATIBLE_API_KEY', meaning: 'Bearer key for that endpoint, if it wants one.' },
    integerVariable('MODEL_MAX_RETRIES', 2, 0, 10, 'Retries of a model call answered 429 or 5xx, with back-off.'),
    integerVariable('MODEL_RETRY_BASE_DELAY_MS', 500, 0, 60_000, 'First back-off; it doubles at each retry.'),
    integerVariable(
      'MODEL_RETRY_MAX_DELAY_MS',
      30_000,
      0,
      600_000,
      'Upper bound on one back-off, including one a `Retry-After` asks for.',
    ),
    integerVariable(
      'MODEL_LIST_TIMEOUT_MS',
      2000,
      100,
      60_000,
      'How long `GET /v1/providers` waits for the model list of Ollama or the OpenAI-compatible server (kept 30 s).',
    ),
  ]),
  prices: custom(
    {
      name: 'MODEL_PRICES_FILE',
      meaning:
        'A JSON file of prices in US dollars per million tokens, `{"provider/model": {"input": 2.5, "output": 10}}`, added to the built-in prices of common OpenAI and Anthropic models or overriding them; a run of a priced model gets `usage.costUsd` (see [Usage and cost](api.md#usage-and-cost)). A bad file stops the start.',
    },
    (env) => loadModelPrices(env.MODEL_PRICES_FILE),
  ),
  tools: group(loadToolsConfig, [
    {
      name: 'HTTP_TOOL_ALLOWED_HOSTS',
      meaning:
        'Comma-separated hosts the `http_get` tool may fetch from (`host` for any port, `host:port`, `[::1]:port`). A name must resolve to public addresses only; a loopback, private or link-local address is reached only through its IP literal listed here (or with `HTTP_TOOL_ALLOW_PRIVATE`). Unset: there is no `http_get` tool.',
    },
    {
      name: 'HTTP_TOOL_ALLOW_PRIVATE',
      default: 'false',
      meaning:
        '`true`: names in `HTTP_TOOL_ALLOWED_HOSTS` may resolve to loopback, private, link-local (cloud metadata) and unique-local addresses too.',
    },
    integerVariable(
      'HTTP_TOOL_MAX_BYTES',
      MIB,
      1,
      100 * MIB,
      '`http_get` cuts longer bodies here (and says `truncated: true`).',
    ),
    integerVariable(
      'HTTP_TOOL_TIMEOUT_MS',
      10_000,
      1,
      600_000,
      'Upper bound on one `http_get` call, redirects and body included.',
    ),
    {
      name: 'MCP_SERVERS_FILE',
      meaning:
        'A JSON file of Model Context Protocol servers whose tools agents may use (see [Tools](api.md#tools)). A bad file stops the start.',
    },
  ]),
  access: group(loadAccessConfig, [
    {
      name: 'API_KEYS',
      meaning:
        'Comma-separated keys (at least 16 printable characters each, no spaces) that may read and write; set: every `/v1` route needs one (see [API keys and rate limits](api.md#api-keys-and-rate-limits)).',
    },
    { name: 'API_READ_KEYS', meaning: 'Comma-separated keys that may only read.' },
    integerVariable(
      'RATE_LIMIT',
      6000,
      0,
      10_000_000,
      'Requests per window per key (per client address without a valid key); `0`: no limit.',
    ),
    integerVariable('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000, 'The window of `RATE_LIMIT`.'),
    integerVariable(
      'SSE_MAX_STREAMS_PER_KEY',
      20,
      1,
      100_000,
      "Server-sent event streams (`GET /v1/events`, runs' `/stream`) open at once per key (per client address without a valid key); past it: `429` `too-many-streams`.",
    ),
    {
      name: 'METRICS_TOKEN',
      meaning:
        'Set (at least 16 printable characters): `/metrics` needs `Authorization: Bearer <token>` (401 otherwise). Unset: `/metrics` is open, so keep it off public networks.',
    },
  ]),
  webhooks: group(loadWebhooksConfig, [
    integerVariable(
      'WEBHOOK_TIMEOUT_MS',
      10_000,
      1,
      600_000,
      'A webhook delivery counts once its receiver answers `2xx` within this; otherwise it is retried (see [Webhooks](api.md#webhooks)).',
    ),
    {
      name: 'WEBHOOK_ALLOWED_HOSTS',
      meaning:
        'Comma-separated hosts (`host`, `host:port`, `[::1]:port`) webhooks may send to over plain `http`, or at loopback, private and link-local addresses. Any other webhook URL must be `https` to public addresses; checked at create and at each delivery.',
    },
    {
      name: 'WEBHOOK_SECRET_KEY',
      meaning:
        "At least 32 printable characters: the key that encrypts webhooks' signing secrets in the log (see [Security](security.md)). Set the same one on every instance. Unset: a key made at first use in `DATA_DIR/webhook-secret.key`.",
    },
    integerVariable(
      'WEBHOOK_RETRY_BASE_MS',
      5000,
      1,
      3_600_000,
      'The first retry of a failed delivery waits about this long; each next one twice as long (with jitter), at most an hour, for 24 h.',
    ),
  ]),
  runs: {
    executorEnabled: flag(
      'RUN_EXECUTOR_ENABLED',
      true,
      'Whether this instance executes runs. Any number of instances may: each run executes once.',
    ),
    concurrency: int(
      'RUN_CONCURRENCY',
      10,
      1,
      10_000,
      'Agent runs executing at once in this instance; the others wait, first in, first out.',
    ),
    timeoutMs: int(
      'RUN_TIMEOUT_MS',
      600_000,
      100,
      24 * HOUR,
      'A run still going after this long fails with `timeout`.',
      '10 min',
    ),
    waitMaxSeconds: int('RUN_WAIT_MAX_SECONDS', 60, 0, 3600, 'Upper bound on `Prefer: wait=<seconds>`.'),
    leaseMs: int(
      'RUN_LEASE_MS',
      30_000,
      300,
      HOUR,
      'An executing instance renews its claim on a run every third of this; a run whose claim is older (its instance died) fails with `interrupted` within about 1.5 times this.',
    ),
    approvalTimeoutMs: int(
      'RUN_APPROVAL_TIMEOUT_MS',
      24 * HOUR,
      100,
      365 * 24 * HOUR,
      'A run waiting this long for a decision on its tool calls fails with `approval_timeout`.',
      '24 h',
    ),
  },
  telemetry: group(loadTelemetryConfig, [
    {
      name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      meaning:
        'An OpenTelemetry collector (OTLP over HTTP), e.g. `http://localhost:4318`: traces of requests, commands, appends, runs, steps, model and tool calls go to `<endpoint>/v1/traces` (see [Traces](api.md#traces)). Unset (and no `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): tracing is off, and the OpenTelemetry SDK is not even loaded.',
    },
    {
      name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      meaning: 'The full URL for traces, used as it is; wins over the one above.',
    },
    {
      name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
      default: 'http/protobuf',
      meaning: 'How spans are sent. `grpc` is refused.',
      values: ['http/protobuf', 'http/json'],
    },
    { name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', meaning: 'The same for traces alone; wins over the one above.' },
    {
      name: 'OTEL_EXPORTER_OTLP_HEADERS',
      meaning:
        'Headers sent with the spans, `key=value,key2=value2` (values URL-encoded): the key of a hosted backend, say.',
    },
    { name: 'OTEL_SERVICE_NAME', default: 'workflows-agents-service', meaning: "The spans' `service.name`." },
    {
      name: 'OTEL_TRACES_SAMPLER',
      default: 'parentbased_always_on',
      meaning:
        "Which traces are kept; a trace continued from a caller's `traceparent` follows the caller's choice under the `parentbased_` ones.",
      values: [
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
        'always_on',
        'always_off',
        'traceidratio',
      ],
    },
    {
      name: 'OTEL_TRACES_SAMPLER_ARG',
      default: '1',
      meaning: 'The ratio of the `traceidratio` samplers, from 0 to 1.',
    },
    {
      name: 'OTEL_CAPTURE_CONTENT',
      default: 'false',
      meaning:
        "`true`: model calls' spans carry the instructions, messages and answers, and tool calls' spans their arguments and results. They may hold personal data and whatever the tools read.",
      values: ['true', 'false'],
    },
  ]),
} satisfies Settings;

/** Reads the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return readSettings(SETTINGS, env);
}

/** The rows of `docs/configuration.md`. */
export const CONFIG_VARIABLES = variablesOf(SETTINGS);

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
