import { loadProviderConfig } from './provider-config';

describe('loadProviderConfig', () => {
  it('has defaults: anthropic and ollama origins, 2 retries from 500 ms', () => {
    const config = loadProviderConfig({});
    expect(config.anthropic).toEqual({ apiKey: undefined, baseUrl: 'https://api.anthropic.com/v1' });
    expect(config.ollama).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(config.openai).toEqual({ apiKey: undefined, baseUrl: undefined });
    expect(config.openaiCompatible).toEqual({ apiKey: undefined, baseUrl: undefined });
    expect(config.retry).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 });
  });

  it.each([
    ['https://api.anthropic.com', 'https://api.anthropic.com/v1'],
    ['https://api.anthropic.com/', 'https://api.anthropic.com/v1'],
    ['https://api.anthropic.com/v1', 'https://api.anthropic.com/v1'],
    ['https://proxy.example/anthropic/v1/', 'https://proxy.example/anthropic/v1'],
    ['http://127.0.0.1:9000', 'http://127.0.0.1:9000/v1'],
  ])('takes ANTHROPIC_BASE_URL %s as the AI SDK base URL %s', (raw, expected) => {
    expect(loadProviderConfig({ ANTHROPIC_BASE_URL: raw }).anthropic.baseUrl).toBe(expected);
  });

  it.each([
    ['http://gpu-box:11434', 'http://gpu-box:11434/v1'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434/v1'],
    ['http://gpu-box:11434/v1', 'http://gpu-box:11434/v1'],
    ['http://gpu-box:11434/v1/', 'http://gpu-box:11434/v1'],
  ])('takes OLLAMA_BASE_URL %s as %s', (raw, expected) => {
    expect(loadProviderConfig({ OLLAMA_BASE_URL: raw }).ollama.baseUrl).toBe(expected);
  });

  it('keeps the OpenAI and OpenAI-compatible base URLs as given, without a trailing slash', () => {
    const config = loadProviderConfig({
      OPENAI_API_KEY: 'sk-1',
      OPENAI_BASE_URL: 'https://gateway.example/openai/v1/',
      OPENAI_COMPATIBLE_BASE_URL: 'http://host:8000/v1',
      OPENAI_COMPATIBLE_API_KEY: 'k',
    });
    expect(config.openai).toEqual({ apiKey: 'sk-1', baseUrl: 'https://gateway.example/openai/v1' });
    expect(config.openaiCompatible).toEqual({ apiKey: 'k', baseUrl: 'http://host:8000/v1' });
  });

  it('treats empty values as unset', () => {
    expect(loadProviderConfig({ OPENAI_API_KEY: '', ANTHROPIC_BASE_URL: '' }).anthropic.baseUrl).toBe(
      'https://api.anthropic.com/v1',
    );
  });

  it.each([
    [{ OLLAMA_BASE_URL: 'localhost:11434' }, 'OLLAMA_BASE_URL'],
    [{ ANTHROPIC_BASE_URL: 'ftp://x' }, 'ANTHROPIC_BASE_URL'],
    [{ OPENAI_COMPATIBLE_BASE_URL: 'not a url' }, 'OPENAI_COMPATIBLE_BASE_URL'],
    [{ MODEL_MAX_RETRIES: '-1' }, 'MODEL_MAX_RETRIES'],
    [{ MODEL_MAX_RETRIES: 'two' }, 'MODEL_MAX_RETRIES'],
    [{ MODEL_RETRY_BASE_DELAY_MS: '1.5' }, 'MODEL_RETRY_BASE_DELAY_MS'],
  ])('rejects a bad value naming the variable: %p', (env, name) => {
    expect(() => loadProviderConfig(env)).toThrow(name);
  });

  it.each(['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'OLLAMA_BASE_URL', 'OPENAI_COMPATIBLE_BASE_URL'])(
    'refuses credentials in %s, naming the variable and not the password',
    (name) => {
      for (const value of [
        'https://user:s3cret-pass@api.example.com/v1',
        'http://s3cret-pass@host:8000',
        'x://s3cret-pass@ bad',
      ]) {
        let message = '';
        try {
          loadProviderConfig({ [name]: value });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toContain(name);
        expect(message).not.toContain('s3cret');
      }
    },
  );
});
