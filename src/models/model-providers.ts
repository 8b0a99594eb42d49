import type { EmbeddingModel, LanguageModel } from 'ai';
import { KnownProvider, parseModelId } from './model-id';
import { ModelRunError } from './model-run-error';
import type { ProviderConfig } from '../config/provider-config';
import { Redaction } from '../shared/redaction';
import { createRetryingFetch } from './retrying-fetch';
import { performance } from 'node:perf_hooks';
import { yieldIfTurnIsLong } from '../shared/turn-budget';

/**
 * The header that tells the counting `fetch` whose attempts a request is: it names the run's counter, and is
 * taken off before the request leaves. Counting this way, rather than through an AsyncLocalStorage, keeps
 * Node 20's promise hooks off (an enabled AsyncLocalStorage makes every promise of the process pay for them).
 */
export const ATTEMPTS_HEADER = 'x-internal-attempts-counter';

/** A language model for one run, with the count of HTTP attempts made through it. */
export interface OpenedModel {
  provider: KnownProvider;
  model: LanguageModel;
  /** For the AI SDK call's `headers`: its requests count in `attempts`. */
  headers: Record<string, string>;
  /** HTTP requests sent so far by calls made with `headers`, retries included. */
  attempts(): number;
  /** The run is done with the model: its counter is forgotten. */
  close(): void;
}

/** Turns `provider/model` into an AI SDK model; keys and base URLs come from the provider configuration. */
export class ModelProviders {
  /** Models are built once per id (building one compiles its response schemas); runs share them. */
  private readonly models = new Map<string, { provider: KnownProvider; model: LanguageModel }>();
  /** The attempt counters of the runs using a model now, by the value of their `ATTEMPTS_HEADER`. */
  private readonly counters = new Map<string, { count: number }>();
  private lastCounter = 0;
  private readonly fetch: typeof globalThis.fetch;
  /** What error texts of providers and tools pass through before they are recorded. */
  readonly redaction: Redaction;

  constructor(
    readonly config: ProviderConfig,
    /** The underlying `fetch` (the global one unless a test wants otherwise). */
    baseFetch?: typeof globalThis.fetch,
    /** Secrets besides the providers' keys that no recorded error text may show (such as the API keys). */
    otherSecrets: Array<string | undefined> = [],
  ) {
    const { openai, anthropic, openaiCompatible } = config;
    this.redaction = new Redaction([openai.apiKey, anthropic.apiKey, openaiCompatible.apiKey, ...otherSecrets]);
    const counted: typeof globalThis.fetch = async (input, init) => {
      const sent = performance.now();
      const response = await (baseFetch ?? globalThis.fetch)(input, this.counted(init));
      // The SDK sets up the answer's streams and reads it once this takes its turn (see turn-budget.ts), the answers
      // to requests sent first going first.
      const later = yieldIfTurnIsLong(sent);
      if (later) await later;
      return response;
    };
    this.fetch = createRetryingFetch(this.config.retry, counted).fetch;
  }

  /** The model of an id, and a count of the attempts made by calls given its `headers`. Throws `ModelRunError`. */
  open(modelId: string): OpenedModel {
    let entry = this.models.get(modelId);
    if (!entry) {
      const parsed = parseModelId(modelId);
      if (typeof parsed === 'string') throw new ModelRunError('provider_not_configured', parsed);
      entry = { provider: parsed.provider, model: this.languageModel(parsed.provider, parsed.model, this.fetch) };
      this.models.set(modelId, entry);
    }
    const attempts = { count: 0 };
    const key = String(++this.lastCounter);
    this.counters.set(key, attempts);
    return {
      ...entry,
      headers: { [ATTEMPTS_HEADER]: key },
      attempts: () => attempts.count,
      close: () => this.counters.delete(key),
    };
  }

  /** The embedding model of an id (`EMBEDDING_MODEL`), through the same retrying fetch. Throws `ModelRunError`. */
  embedding(modelId: string): EmbeddingModel {
    const parsed = parseModelId(modelId);
    if (typeof parsed === 'string') throw new ModelRunError('provider_not_configured', parsed);
    const { provider, model } = parsed;
    switch (provider) {
      case 'openai': {
        const { apiKey, baseUrl } = this.config.openai;
        if (!apiKey) throw notConfigured(provider, 'OPENAI_API_KEY');
        return sdk<typeof import('@ai-sdk/openai')>('@ai-sdk/openai')
          .createOpenAI({ apiKey, baseURL: baseUrl, fetch: this.fetch })
          .embedding(model);
      }
      case 'ollama':
        return compatible('ollama', this.config.ollama.baseUrl, undefined, this.fetch).embeddingModel(model);
      case 'openai-compatible': {
        const { apiKey, baseUrl } = this.config.openaiCompatible;
        if (!baseUrl) throw notConfigured(provider, 'OPENAI_COMPATIBLE_BASE_URL');
        return compatible(provider, baseUrl, apiKey, this.fetch).embeddingModel(model);
      }
      case 'anthropic':
        throw new ModelRunError('provider_not_configured', 'Anthropic has no embedding models');
    }
  }

  /** Counts the attempt against the counter its header names, and takes the header off. */
  private counted(init: RequestInit | undefined): RequestInit | undefined {
    const headers = init?.headers;
    if (!headers || headers instanceof Headers || Array.isArray(headers) || !(ATTEMPTS_HEADER in headers)) return init;
    const { [ATTEMPTS_HEADER]: key, ...rest } = headers;
    const attempts = this.counters.get(String(key));
    if (attempts) attempts.count++;
    return { ...init, headers: rest };
  }

  private languageModel(provider: KnownProvider, model: string, fetch: typeof globalThis.fetch): LanguageModel {
    switch (provider) {
      case 'openai': {
        const { apiKey, baseUrl } = this.config.openai;
        if (!apiKey) throw notConfigured(provider, 'OPENAI_API_KEY');
        // Chat Completions: the provider asks for usage in streamed answers (stream_options.include_usage).
        return sdk<typeof import('@ai-sdk/openai')>('@ai-sdk/openai')
          .createOpenAI({ apiKey, baseURL: baseUrl, fetch })
          .chat(model);
      }
      case 'anthropic': {
        const { apiKey, baseUrl } = this.config.anthropic;
        if (!apiKey) throw notConfigured(provider, 'ANTHROPIC_API_KEY');
        return sdk<typeof import('@ai-sdk/anthropic')>('@ai-sdk/anthropic').createAnthropic({
          apiKey,
          baseURL: baseUrl,
          fetch,
        })(model);
      }
      case 'ollama':
        return compatible('ollama', this.config.ollama.baseUrl, undefined, fetch)(model);
      case 'openai-compatible': {
        const { apiKey, baseUrl } = this.config.openaiCompatible;
        if (!baseUrl) throw notConfigured(provider, 'OPENAI_COMPATIBLE_BASE_URL');
        return compatible(provider, baseUrl, apiKey, fetch)(model);
      }
    }
  }
}

function compatible(name: string, baseURL: string, apiKey: string | undefined, fetch: typeof globalThis.fetch) {
  const { createOpenAICompatible } = sdk<typeof import('@ai-sdk/openai-compatible')>('@ai-sdk/openai-compatible');
  // Structured output as `response_format: json_schema`, which Ollama, vLLM, LM Studio and llama.cpp understand.
  return createOpenAICompatible({ name, baseURL, apiKey, fetch, includeUsage: true, supportsStructuredOutputs: true });
}

/** A provider package, loaded on the first model built with it rather than at the service's start. */
function sdk<Module>(name: string): Module {
  return require(name) as Module;
}

function notConfigured(provider: KnownProvider, variable: string): ModelRunError {
  return new ModelRunError('provider_not_configured', `provider "${provider}" is not configured: set ${variable}`);
}
