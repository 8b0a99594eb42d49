import { ModelPrices } from './model-prices';

describe('model prices', () => {
  const prices = new ModelPrices({
    'ollama/llama3.2': { input: 0, output: 0 },
    'openai/gpt-4o': { input: 1, output: 2 },
  });

  it('prices a dated snapshot as its family, and a file entry over the built-in one', () => {
    expect(prices.priceOf('anthropic/claude-sonnet-4-20250514')).toEqual({ input: 3, output: 15 });
    expect(prices.priceOf('openai/gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(prices.priceOf('openai/gpt-4o')).toEqual({ input: 1, output: 2 });
    expect(prices.priceOf('openai-compatible/gpt-4o')).toBeUndefined();
  });

  it('adds costUsd only for a priced model, free ones included', () => {
    expect(prices.priced('anthropic/claude-3-5-haiku-latest', { inputTokens: 1000, outputTokens: 500 })).toEqual({
      inputTokens: 1000,
      outputTokens: 500,
      costUsd: 0.0028,
    });
    expect(prices.priced('ollama/llama3.2', { inputTokens: 10, outputTokens: 5 }).costUsd).toBe(0);
    expect(prices.priced('ollama/qwen3', { inputTokens: 10, outputTokens: 5 })).toEqual({
      inputTokens: 10,
      outputTokens: 5,
    });
  });
});
