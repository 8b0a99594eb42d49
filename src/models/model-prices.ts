import type { ModelPrice, ModelPriceTable } from '../config/model-prices-config';
import { addUsage, type ModelAttempt, type Usage } from '../domain/run';

/**
 * List prices of common models (USD per million tokens, standard tier, no cache or batch discounts), as their
 * providers published them. `MODEL_PRICES_FILE` adds entries or overrides these.
 */
export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai/gpt-5': { input: 1.25, output: 10 },
  'openai/gpt-5-mini': { input: 0.25, output: 2 },
  'openai/gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai/gpt-4.1': { input: 2, output: 8 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai/gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai/gpt-4o': { input: 2.5, output: 10 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai/o3': { input: 2, output: 8 },
  'openai/o4-mini': { input: 1.1, output: 4.4 },
  'anthropic/claude-opus-4-5': { input: 5, output: 25 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75 },
  'anthropic/claude-opus-4-0': { input: 15, output: 75 },
  'anthropic/claude-opus-4': { input: 15, output: 75 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic/claude-sonnet-4-0': { input: 3, output: 15 },
  'anthropic/claude-sonnet-4': { input: 3, output: 15 },
  'anthropic/claude-3-7-sonnet': { input: 3, output: 15 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4 },
};

/** A dated snapshot (`-20250514`, `-2024-08-06`) or `-latest` takes its family's price. */
const SNAPSHOT_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** The price table: built-in entries, then those of `MODEL_PRICES_FILE` (the configuration's `prices`). */
export class ModelPrices {
  private readonly table: Map<string, ModelPrice>;

  constructor(overrides: ModelPriceTable = {}) {
    this.table = new Map(Object.entries({ ...BUILT_IN_PRICES, ...overrides }));
  }

  /** The price of `provider/model`: its own entry, else its family's (a dated snapshot without its date). */
  priceOf(modelId: string): ModelPrice | undefined {
    const exact = this.table.get(modelId);
    if (exact) return exact;
    const family = modelId.replace(SNAPSHOT_SUFFIX, '');
    return this.table.get(family);
  }

  /**
   * The models a run called, each with its tokens priced at its own model, and the run's usage over them added to
   * `before` (what the run used before it waited for a person, already priced). The sum has `costUsd` when every
   * part that used tokens had a price.
   */
  pricedAttempts(before: Usage | null, attempts: ModelAttempt[]): { usage: Usage; modelAttempts: ModelAttempt[] } {
    const modelAttempts = attempts.map((attempt) => ({ ...attempt, usage: this.priced(attempt.model, attempt.usage) }));
    const parts = [before, ...modelAttempts.map((attempt) => attempt.usage)];
    const usage = addUsage(parts) ?? { inputTokens: 0, outputTokens: 0 };
    return { usage, modelAttempts };
  }

  /** The usage with `costUsd` when the model has a price (rounded to a millionth of a cent). */
  priced(modelId: string, usage: Usage): Usage {
    const { inputTokens, outputTokens } = usage;
    const price = this.priceOf(modelId);
    if (!price) return { inputTokens, outputTokens };
    const cost = (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
    return { inputTokens, outputTokens, costUsd: Math.round(cost * 1e8) / 1e8 };
  }
}
