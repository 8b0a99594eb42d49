export { KNOWN_PROVIDERS, isKnownModelId, parseModelId } from './model-id';
export type { KnownProvider, ModelId } from './model-id';
import { integer } from '../shared/env';

/** Keys and base URLs of the model providers; a provider missing what it needs is "not configured". */
export interface ProviderConfig {
  openai: { apiKey?: string; baseUrl?: string };
  /** `baseUrl` includes `/v1`, as the AI SDK's anthropic provider wants it. */
  anthropic: { apiKey?: string; baseUrl: string };
  /** Ollama's OpenAI-compatible endpoint, including `/v1`; needs no key. */
  ollama: { baseUrl: string };
  /** A Chat Completions endpoint, e.g. `http://host:8000/v1`. */
  openaiCompatible: { apiKey?: string; baseUrl?: string };
  retry: RetryPolicy;
  /** How long `GET /v1/providers` waits for a provider's model list. */
  modelListTimeoutMs: number;
}

export interface RetryPolicy {
  /** Retries after the first HTTP attempt, for 429 and 5xx answers. */
  maxRetries: number;
  /** Back-off before retry n (from 0) is `baseDelayMs * 2^n`, capped at `maxDelayMs`. */
  baseDelayMs: number;
  /** Upper bound on any wait, including one asked for by `Retry-After`. */
  maxDelayMs: number;
}

const DEFAULT_ANTHROPIC_ORIGIN = 'https://api.anthropic.com';
const DEFAULT_OLLAMA_ORIGIN = 'http://127.0.0.1:11434';

/** Reads the environment; a bad value throws an Error naming the variable. */
export function loadProviderConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  return {
    openai: { apiKey: text(env, 'OPENAI_API_KEY'), baseUrl: httpUrl(env, 'OPENAI_BASE_URL') },
    anthropic: {
      apiKey: text(env, 'ANTHROPIC_API_KEY'),
      baseUrl: withV1(httpUrl(env, 'ANTHROPIC_BASE_URL') ?? DEFAULT_ANTHROPIC_ORIGIN),
    },
    ollama: { baseUrl: withV1(httpUrl(env, 'OLLAMA_BASE_URL') ?? DEFAULT_OLLAMA_ORIGIN) },
    openaiCompatible: {
      apiKey: text(env, 'OPENAI_COMPATIBLE_API_KEY'),
      baseUrl: httpUrl(env, 'OPENAI_COMPATIBLE_BASE_URL'),
    },
    retry: {
      maxRetries: integer(env, 'MODEL_MAX_RETRIES', 2, 0, 10),
      baseDelayMs: integer(env, 'MODEL_RETRY_BASE_DELAY_MS', 500, 0, 60_000),
      maxDelayMs: integer(env, 'MODEL_RETRY_MAX_DELAY_MS', 30_000, 0, 600_000),
    },
    modelListTimeoutMs: integer(env, 'MODEL_LIST_TIMEOUT_MS', 2000, 100, 60_000),
  };
}

/** `https://host` and `https://host/v1/` both become `https://host/v1`. */
export function withV1(baseUrl: string): string {
  const trimmed = withoutTrailingSlashes(baseUrl);
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  // Messages name the variable but never quote its value: a URL may hold a key in its query or its user part.
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http:// or https:// URL, and is not a URL`);
  }
  if (url.username !== '' || url.password !== '') {
    // They would reach error texts, and so the event log: keys go in the *_API_KEY variables.
    throw new Error(
      `${name} must not hold credentials (user:password@); give the provider's key in its API key variable`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http:// or https:// URL, not ${url.protocol}//`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new Error(`${name} must not hold a query or fragment (give keys in the provider's API key variable)`);
  }
  return withoutTrailingSlashes(raw);
}

function withoutTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
