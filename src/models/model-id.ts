/** The providers a model id (`provider/model`) may name. */
export const KNOWN_PROVIDERS = ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const;

export type KnownProvider = (typeof KNOWN_PROVIDERS)[number];

export interface ModelId {
  provider: KnownProvider;
  /** Everything after the first `/`; may itself hold `/` (e.g. `openai-compatible/meta-llama/Llama-3`). */
  model: string;
}

/** Splits `provider/model`; answers a reason string when the id is not usable. */
export function parseModelId(id: string): ModelId | string {
  const slash = id.indexOf('/');
  if (slash < 0) return `model "${id}" must be "provider/model", with provider one of ${KNOWN_PROVIDERS.join(', ')}`;
  const provider = id.slice(0, slash);
  const model = id.slice(slash + 1);
  if (!isKnownProvider(provider)) {
    return `model "${id}" names an unknown provider "${provider}"; known providers: ${KNOWN_PROVIDERS.join(', ')}`;
  }
  if (model.trim() === '') return `model "${id}" has no model name after "${provider}/"`;
  return { provider, model };
}

/** Whether `id` is `provider/model` with a known provider (checked when an agent is created). */
export function isKnownModelId(id: string): boolean {
  return typeof parseModelId(id) !== 'string';
}

export function isKnownProvider(name: string): name is KnownProvider {
  return (KNOWN_PROVIDERS as readonly string[]).includes(name);
}
