/**
 * TEST DOUBLE, part of the scripted model servers (scripted-model-server.ts): OpenAI's `POST /v1/embeddings`, which
 * the AI SDK's openai and openai-compatible providers call alike. Each text is embedded by the function a test
 * gives (`wordHashEmbedding` by default); one that throws makes the answer a 503, as an overloaded provider's.
 */
export class ScriptedEmbeddings {
  /** The texts of each request, in order. */
  readonly requests: string[][] = [];
  private embed: (text: string) => number[] = wordHashEmbedding;

  embedWith(embed: (text: string) => number[]): void {
    this.embed = embed;
  }

  /** The answer to a request's parsed body: its status and JSON body. */
  answer({ input, model }: { input: string | string[]; model: string }): { status: number; body: unknown } {
    const texts = typeof input === 'string' ? [input] : input;
    this.requests.push(texts);
    try {
      const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: this.embed(text) }));
      const usage = { prompt_tokens: texts.length, total_tokens: texts.length };
      return { status: 200, body: { object: 'list', data, model, usage } };
    } catch (error) {
      return { status: 503, body: { error: { message: String(error), type: 'server_error' } } };
    }
  }
}

/** A deterministic embedding: each word (lower-cased) adds 1 to one of 16 dimensions, by a hash of it. */
export function wordHashEmbedding(text: string): number[] {
  const vector = new Array<number>(16).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) % 16;
    vector[hash] += 1;
  }
  return vector;
}
