import { integer } from '../shared/env';
import { group, integerVariable } from '../shared/settings';

export const ACCESS_CONFIG = Symbol('AccessConfig');

/** Who may call the API, and how often. */
export interface AccessConfig {
  /** Keys that may do anything; empty with `readKeys` empty: the API is open. */
  keys: string[];
  /** Keys that may only read (GET routes and the event stream). */
  readKeys: string[];
  /** Requests per window per key (per client address when open); 0: no limit. */
  rateLimit: number;
  rateLimitWindowMs: number;
  /** Server-sent event streams open at once per key (per client address without keys). */
  maxStreamsPerKey: number;
  /** When set, `/metrics` needs it as a bearer token. */
  metricsToken?: string;
}

export function loadAccessConfig(env: NodeJS.ProcessEnv): AccessConfig {
  return {
    keys: keyList(env, 'API_KEYS'),
    readKeys: keyList(env, 'API_READ_KEYS'),
    rateLimit: integer(env, 'RATE_LIMIT', 6000, 0, 10_000_000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    maxStreamsPerKey: integer(env, 'SSE_MAX_STREAMS_PER_KEY', 20, 1, 100_000),
    metricsToken: metricsToken(env),
  };
}

function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN?.trim();
  if (!token) return undefined;
  if (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))
    throw new Error('METRICS_TOKEN must be at least 16 printable characters without spaces');
  return token;
}

function keyList(env: NodeJS.ProcessEnv, name: string): string[] {
  const keys = (env[name] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  for (const key of keys) {
    if (key.length < 16 || !/^[\x21-\x7e]+$/.test(key)) {
      throw new Error(`${name}: each key must be at least 16 printable characters without spaces`);
    }
  }
  return keys;
}

/** Who may call the API, as `docs/configuration.md` lists it. */
export const ACCESS_SETTINGS = group(loadAccessConfig, [
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
]);
