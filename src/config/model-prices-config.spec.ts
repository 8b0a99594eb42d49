import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModelPrices } from './model-prices-config';

describe('loadModelPrices', () => {
  const file = (content: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it("gives no entries without a file, and the file's entries with one", () => {
    expect(loadModelPrices(undefined)).toEqual({});
    expect(loadModelPrices(' ')).toEqual({});
    const prices = { 'ollama/llama3.2': { input: 0, output: 0 }, 'openai/gpt-4o': { input: 1, output: 2 } };
    expect(loadModelPrices(file(prices))).toEqual(prices);
  });

  it.each([
    ['not JSON', '{', /^MODEL_PRICES_FILE could not be read as JSON/],
    ['an array', [], /^MODEL_PRICES_FILE must hold a JSON object/],
    ['an id without a provider', { 'gpt-4o': { input: 1, output: 2 } }, /"gpt-4o" must be a model id/],
    ['a negative price', { 'openai/gpt-4o': { input: -1, output: 2 } }, /"openai\/gpt-4o" needs "input" and "output"/],
  ])('refuses %s, naming the variable', (_, content, message) => {
    expect(() => loadModelPrices(file(content))).toThrow(message);
  });
});
