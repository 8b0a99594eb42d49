import { AsyncLocalStorage } from 'node:async_hooks';
import type { LanguageModel } from 'ai';
import { KnownProvider, parseModelId } from './model-id';
import { ModelRunError } from './model-run-error';
import type { ProviderConfig } from './provider-config';
import { Redaction } from '../shared/redaction';
import { createRetryingFetch } from './retrying-fetch';

/** A language model for one run, with the count of HTTP attempts made through it. */
export interface OpenedModel {
  provider: KnownProvider;
  model: LanguageModel;
  /** HTTP requests sent so far by work run through `counting`, retries included. */
  attempts(): number;
  counting<T>(work: () => T): T;
}

/** Turns `provider/model` into an AI SDK model; keys and base URLs come from the provider configuration. */
export class ModelProviders {
  /** Models are built once per id (building one compiles its response schemas); runs share them. */
  private readonly models = new Map<string, { provider: KnownProvider; model: LanguageModel }>();
  /** The attempts of the run whose model call is in progress, followed through its async calls. */
  private readonly runAttempts = new AsyncLocalStorage<{ count: number }>();
  private readonly fetch: typeof globalThis.fetch;
  /** What error texts of providers and tools pass through before they are recorded. */
  readonly redaction: Redaction;

  constructor(
    readonly config: ProviderConfig,
    /** The underlying `fetch` (the global one unless a test wants otherwise). */
    baseFetch?: typeof globalThis.fetch,
    /** Secrets besides the providers' keys that no recorded error text may show (such as the API keys). */
    otherSecrets: string[] = [],
  ) {
    const { openai, anthropic, openaiCompatible } = config;
    this.redaction = new Redaction([openai.apiKey, anthropic.apiKey, openaiCompatible.apiKey, ...otherSecrets]);
    const counted: typeof globalThis.fetch = (input, init) => {
      const attempts = this.runAttempts.getStore();
      if (attempts) attempts.count++;
      return (baseFetch ?? globalThis.fetch)(input, init);
    };
    this.fetch = createRetryingFetch(this.config.retry, counted).fetch;
  }

  /** The model of an id, and a count of the attempts made by calls run through `counting`. Throws `ModelRunError`. */
  open(modelId: string): OpenedModel {
    let entry = this.models.get(modelId);
    if (!entry) {
      const parsed = parseModelId(modelId);
      if (typeof parsed === 'string') throw new ModelRunError('provider_not_configured', parsed);
      entry = { provider: parsed.provider, model: this.languageModel(parsed.provider, parsed.model, this.fetch) };
      this.models.set(modelId, entry);
    }
    const attempts = { count: 0 };
    return {
      ...entry,
      attempts: () => attempts.count,
      counting: (work) => this.runAttempts.run(attempts, work),
    };
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
