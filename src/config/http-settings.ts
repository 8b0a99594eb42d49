import { Settings, fixed, int } from '../shared/settings';
import { TRUST_PROXY_SETTING, TrustProxy } from './trust-proxy';
import { HOUR, MIB } from './units';

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

/** The limits of `HttpLimits`, each from its variable. */
export const HTTP_LIMIT_SETTINGS = {
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
    25_000,
    100,
    10_000_000,
    "Most values a JSON body may hold, all told: each array item and each member of an object. More is a `413`, answered before the body is parsed: what a body costs to parse, store, put in a prompt and hand on grows with its values more than its bytes (an object of 100,000 keys, under 1 MiB, took 60-160 ms for each of those steps). 25,000 values is more than a model's context window holds.",
    '25,000',
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
  trustProxy: TRUST_PROXY_SETTING,
} satisfies Settings;

/** Server-sent events and the pages of the event log that clients read. */
export const EVENT_STREAM_SETTINGS = {
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
} satisfies Settings;
