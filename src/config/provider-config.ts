import { integer } from '../shared/env';
import { group, integerVariable } from '../shared/settings';

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
  /** `provider/model` of an embedding model: memory is then searched by meaning too (checked by MemoryVectors). */
  embeddingModel?: string;
  /** How many threads one search by meaning may use. */
  embeddingSearchThreads: number;
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
    embeddingModel: text(env, 'EMBEDDING_MODEL'),
    embeddingSearchThreads: integer(env, 'EMBEDDING_SEARCH_THREADS', 1, 1, 64),
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

/** The providers' settings as `docs/configuration.md` lists them. */
export const PROVIDER_SETTINGS = group(loadProviderConfig, [
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
    default: DEFAULT_ANTHROPIC_ORIGIN,
    meaning: "The API's origin, as Anthropic's own SDK takes it; a value ending in `/v1` works too.",
  },
  {
    name: 'OLLAMA_BASE_URL',
    default: DEFAULT_OLLAMA_ORIGIN,
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
  {
    name: 'EMBEDDING_MODEL',
    meaning:
      'An embedding model (`openai/text-embedding-3-small`, `ollama/nomic-embed-text`, `openai-compatible/<model>`), with its provider configured as above. Set: memory items are embedded when put, and memory search and recall find them by meaning too (see [Memory](memory.md)). Unset: by their words only.',
  },
  integerVariable(
    'EMBEDDING_SEARCH_THREADS',
    1,
    1,
    64,
    'How many threads one search by meaning may use (off the event loop). One is fastest up to about 100,000 items of 768 dimensions; more pay over more items.',
  ),
]);
