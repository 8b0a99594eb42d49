import { readFileSync } from 'node:fs';
import { custom } from '../shared/settings';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by `provider/model` id; `models/model-prices.ts` lays them over its built-in ones. */
export type ModelPriceTable = Record<string, ModelPrice>;

/**
 * Reads `MODEL_PRICES_FILE`: a JSON object of `"provider/model": {"input": <USD>, "output": <USD>}` per million
 * tokens. Unset: no entries. A bad file throws an error naming the variable and the entry.
 */
export function loadModelPrices(file: string | undefined): ModelPriceTable {
  if (file === undefined || file.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file.trim(), 'utf8'));
  } catch (error) {
    throw new Error(`MODEL_PRICES_FILE could not be read as JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('MODEL_PRICES_FILE must hold a JSON object of "provider/model": {"input": n, "output": n}');
  }
  const prices: ModelPriceTable = {};
  for (const [modelId, entry] of Object.entries(parsed)) {
    if (!/^[^/\s]+\/\S+$/.test(modelId)) {
      throw new Error(`MODEL_PRICES_FILE: "${modelId}" must be a model id as agents name it, "provider/model"`);
    }
    const { input, output } = (entry ?? {}) as Record<string, unknown>;
    if (!isPrice(input) || !isPrice(output)) {
      throw new Error(
        `MODEL_PRICES_FILE: "${modelId}" needs "input" and "output", each a number of US dollars per million tokens, 0 or more`,
      );
    }
    prices[modelId] = { input, output };
  }
  return prices;
}

function isPrice(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** `MODEL_PRICES_FILE` as `docs/configuration.md` lists it. */
export const MODEL_PRICES_SETTING = custom(
  {
    name: 'MODEL_PRICES_FILE',
    meaning:
      'A JSON file of prices in US dollars per million tokens, `{"provider/model": {"input": 2.5, "output": 10}}`, added to the built-in prices of common OpenAI and Anthropic models or overriding them; a run of a priced model gets `usage.costUsd` (see [Usage and cost](api.md#usage-and-cost)). A bad file stops the start.',
  },
  (env) => loadModelPrices(env.MODEL_PRICES_FILE),
);
