import { isKnownModelId, KNOWN_PROVIDERS, parseModelId } from './model-id';

describe('parseModelId', () => {
  it('splits at the first slash', () => {
    expect(parseModelId('openai/gpt-4o-mini')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(parseModelId('openai-compatible/meta-llama/Llama-3.1-8B')).toEqual({
      provider: 'openai-compatible',
      model: 'meta-llama/Llama-3.1-8B',
    });
  });

  it('gives a reason listing the known providers', () => {
    expect(parseModelId('mistral/large')).toBe(
      `model "mistral/large" names an unknown provider "mistral"; known providers: ${KNOWN_PROVIDERS.join(', ')}`,
    );
    expect(parseModelId('gpt-4o')).toContain('must be "provider/model"');
    expect(parseModelId('ollama/')).toContain('no model name');
  });

  it('says whether an id names a known provider', () => {
    expect(isKnownModelId('ollama/llama3.2')).toBe(true);
    expect(isKnownModelId('google/gemini')).toBe(false);
  });
});
