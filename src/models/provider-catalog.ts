import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Clock } from '../shared/clock';
import { KNOWN_PROVIDERS, KnownProvider } from './model-id';
import type { ProviderConfig } from '../config/provider-config';

/** A provider as `GET /v1/providers` shows it. */
export interface ProviderInfo {
  id: KnownProvider;
  configured: boolean;
  /** The variable that configures it (its key, or its address). */
  variable: string;
  /** The models it offers, when it can list them (OpenAI-compatible servers and Ollama) and did; else null. */
  models: string[] | null;
  /** Why the models could not be listed; null when they were, or when the provider lists none. */
  modelsError: string | null;
}

/** How long a model list is kept before the provider is asked again. */
export const MODEL_LIST_TTL_MS = 30_000;

interface Listing {
  at: number;
  models: string[] | null;
  error: string | null;
}

/**
 * Which providers are configured, and the models of those that list them (`GET <base>/models`, answered as
 * OpenAI's `{data: [{id}]}`), cached briefly. A provider that does not answer within the timeout is shown with
 * its error; nothing here fails the request.
 */
@Injectable()
export class ProviderCatalog {
  private readonly config: ProviderConfig;
  private readonly listings = new Map<KnownProvider, Listing | Promise<Listing>>();

  constructor(
    @Inject(APP_CONFIG) appConfig: AppConfig,
    private readonly clock: Clock,
  ) {
    this.config = appConfig.providers;
  }

  async list(): Promise<ProviderInfo[]> {
    return Promise.all(KNOWN_PROVIDERS.map((id) => this.describe(id)));
  }

  private async describe(id: KnownProvider): Promise<ProviderInfo> {
    const { configured, variable, listFrom, apiKey } = this.setup(id);
    if (!configured || !listFrom) return { id, configured, variable, models: null, modelsError: null };
    const { models, error } = await this.listing(id, listFrom, apiKey);
    return { id, configured, variable, models, modelsError: error };
  }

  private setup(id: KnownProvider): { configured: boolean; variable: string; listFrom?: string; apiKey?: string } {
    const { openai, anthropic, ollama, openaiCompatible } = this.config;
    switch (id) {
      case 'openai':
        return { configured: !!openai.apiKey, variable: 'OPENAI_API_KEY' };
      case 'anthropic':
        return { configured: !!anthropic.apiKey, variable: 'ANTHROPIC_API_KEY' };
      case 'ollama':
        // Needs no key: it counts as configured at its address, and its list says whether it answers there.
        return { configured: true, variable: 'OLLAMA_BASE_URL', listFrom: ollama.baseUrl };
      case 'openai-compatible':
        return {
          configured: !!openaiCompatible.baseUrl,
          variable: 'OPENAI_COMPATIBLE_BASE_URL',
          listFrom: openaiCompatible.baseUrl,
          apiKey: openaiCompatible.apiKey,
        };
    }
  }

  private async listing(id: KnownProvider, baseUrl: string, apiKey?: string): Promise<Listing> {
    const kept = this.listings.get(id);
    const now = this.clock.now().getTime();
    if (kept instanceof Promise) return kept;
    if (kept && now - kept.at < MODEL_LIST_TTL_MS) return kept;
    const asking = fetchModels(baseUrl, apiKey, this.config.modelListTimeoutMs).then(
      (models) => ({ at: now, models, error: null }),
      (error: unknown) => ({ at: now, models: null, error: `${baseUrl}/models: ${reason(error)}` }),
    );
    this.listings.set(id, asking);
    const listing = await asking;
    this.listings.set(id, listing);
    return listing;
  }
}

async function fetchModels(baseUrl: string, apiKey: string | undefined, timeoutMs: number): Promise<string[]> {
  const response = await fetch(`${baseUrl}/models`, {
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`answered ${response.status}`);
  const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
  if (!Array.isArray(body.data)) throw new Error('answered without a "data" list');
  return body.data
    .map((model) => model.id)
    .filter((modelId): modelId is string => typeof modelId === 'string')
    .sort();
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  if (cause) return `unreachable (${cause})`;
  return error instanceof Error ? error.message : String(error);
}
