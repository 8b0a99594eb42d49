import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  ChatCompletionsBody,
  ScriptedServer,
  startScriptedOpenAIServer,
  systemMessage,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** Words of one meaning share a dimension: an embedding that knows "feline" is near "kitten", as a real one would. */
const CONCEPTS = [
  ['cat', 'cats', 'kitten', 'feline', 'pet'],
  ['car', 'vehicle', 'drive', 'drives', 'truck'],
  ['tea', 'coffee', 'drink', 'drinks', 'cup'],
];
function conceptEmbedding(text: string): number[] {
  const vector = [0, 0, 0, 0.01];
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((words) => words.includes(word));
    if (concept >= 0) vector[concept] += 1;
  }
  return vector;
}

/**
 * Memory searched by meaning, with `EMBEDDING_MODEL` naming an embedding model of the scripted OpenAI-compatible
 * server (a test double for a paid provider, driven by the AI SDK's real provider over HTTP), on both stores.
 */
describe.each(storeFixtures().slice(0, 2))('memory searched by meaning (%s)', (storeName, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture | undefined;
  let app: TestApp;
  const env = () => ({
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    EMBEDDING_MODEL: 'openai-compatible/embed',
    MODEL_MAX_RETRIES: '0',
  });

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'noted' }));
    model.embedWith(conceptEmbedding);
    if (storeName !== 'sqlite') fixture = await createFixture();
    app = await startTestApp({ env: env(), ...(fixture && { fixture }) });
  });
  afterEach(async () => {
    await app.close();
    await fixture?.stop();
    fixture = undefined;
    await model.close();
  });

  const put = (namespace: string, key: string, value: unknown) =>
    app.request('PUT', `/v1/memory/${encodeURIComponent(namespace)}/${key}`, { value });
  const search = (body: object) => app.request('POST', '/v1/memory/search', body);
  const keys = (response: { body: { items: Array<{ key: string }> } }) => response.body.items.map((i) => i.key);

  async function seed() {
    expect((await put('users/ada', 'pet', 'My kitten sleeps all day')).status).toBe(200);
    expect((await put('users/ada', 'commute', { note: 'I drive a red vehicle', kind: 'travel' })).status).toBe(200);
    expect((await put('users/ada', 'morning', { note: 'Green tea first', kind: 'habit' })).status).toBe(200);
    expect((await put('users/bob', 'pet', "Bob's old cat")).status).toBe(200);
  }

  it('finds items by meaning, with no word in common, right after their put', async () => {
    await seed();
    const byWords = await search({ namespace: 'users/ada', query: 'feline', mode: 'keyword' });
    expect(byWords.body.items).toEqual([]);

    const byMeaning = await search({ namespace: 'users/ada', query: 'feline', mode: 'semantic', limit: 2 });
    expect(byMeaning.status).toBe(200);
    expect(keys(byMeaning)).toEqual(['pet', expect.any(String)]);
    expect(byMeaning.body.items[0]).toMatchObject({ namespace: 'users/ada', value: 'My kitten sleeps all day' });
    expect(byMeaning.body.items[0].score).toBeGreaterThan(0.99);
    expect(byMeaning.body.items[1].score).toBeLessThan(0.1);

    // The namespace and those below it; the filter applies to what meaning finds.
    const everyone = await search({ namespace: 'users', query: 'a cat', mode: 'semantic', limit: 2 });
    expect(everyone.body.items.map((i: any) => `${i.namespace}/${i.key}`).sort()).toEqual([
      'users/ada/pet',
      'users/bob/pet',
    ]);
    const filtered = await search({ namespace: 'users', query: 'truck', mode: 'semantic', filter: { kind: 'habit' } });
    expect(keys(filtered)).toEqual(['morning']);

    // The items' texts were embedded once each, and each query once.
    expect(model.embeddingRequests.flat()).toEqual(
      expect.arrayContaining(['pet My kitten sleeps all day', 'commute I drive a red vehicle travel', 'feline']),
    );
  });

  it('searches both ways by default, fused by rank, and forgets what is deleted or replaced', async () => {
    await seed();
    const hybrid = await search({ namespace: 'users/ada', query: 'vehicle kitten', limit: 3 });
    expect(hybrid.status).toBe(200);
    expect(keys(hybrid).slice(0, 2).sort()).toEqual(['commute', 'pet']);
    // Found by both lists, an item scores the sum of 1/(60 + rank) in each.
    expect(hybrid.body.items[0].score).toBeGreaterThan(1 / 61);
    expect(hybrid.body.items[0].score).toBeLessThanOrEqual(2 / 61);

    expect((await app.request('DELETE', '/v1/memory/users%2Fada/pet')).status).toBe(204);
    await put('users/ada', 'commute', 'I walk everywhere now');
    const after = await search({ namespace: 'users/ada', query: 'kitten car', mode: 'semantic', limit: 5 });
    expect(after.body.items.map((i: any) => i.value)).not.toContainEqual('My kitten sleeps all day');
    expect(after.body.items.every((i: any) => i.score < 0.1)).toBe(true);
  });

  it('recalls by meaning before a run, as the model is shown and the run records', async () => {
    await seed();
    const memory = { maxMessages: 20, namespace: 'users/{{context.user}}', recall: { limit: 1, minScore: 0.5 } };
    const agent = await app.request('POST', '/v1/agents', { name: 'sitter', model: 'openai-compatible/m', memory });
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'Feed the feline', context: { user: 'ada' } },
      { prefer: 'wait=10' },
    );
    expect(run.body.status).toBe('succeeded');
    expect(run.body.recalled).toEqual([
      { namespace: 'users/ada', key: 'pet', version: 1, score: expect.closeTo(1, 2) },
    ]);
    const sent = model.requests[model.requests.length - 1];
    const recalled = sent.messages.filter((m) => m.role === 'system').map((m) => String(m.content));
    expect(recalled[0]).toBe(systemMessage(sent));
    expect(recalled.find((text) => text.startsWith('What you remember'))).toContain(
      'users/ada/pet: "My kitten sleeps all day"',
    );
  });

  it('keeps the vectors across a restart, embedding nothing again', async () => {
    await seed();
    const embedded = model.embeddingRequests.flat().length;
    await app.close();
    app = await startTestApp({ env: env(), dataDir: app.dataDir, ...(fixture && { fixture }) });
    const found = await search({ namespace: 'users/ada', query: 'feline', mode: 'semantic', limit: 1 });
    expect(keys(found)).toEqual(['pet']);
    expect(model.embeddingRequests.flat().slice(embedded)).toEqual(['feline']);
  });

  it("forgets a forgotten subject's items from the vectors and their cache too", async () => {
    await app.close();
    app = await startTestApp({
      env: { ...env(), DATA_KEY_SECRET: 'a-data-key-secret-of-more-than-32-characters' },
      ...(fixture && { fixture }),
    });
    await app.request('PUT', '/v1/subjects/ada/namespaces', { namespaces: ['users/ada'] });
    await seed();
    const cached = () => {
      const db = new Database(join(app.dataDir, 'embeddings.sqlite'), { readonly: true });
      const { n } = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM embeddings').get()!;
      db.close();
      return n;
    };
    expect(cached()).toBe(4);
    expect((await app.request('DELETE', '/v1/subjects/ada')).status).toBe(200);
    const found = await search({ namespace: 'users', query: 'a cat', mode: 'semantic', limit: 5 });
    expect(found.body.items.map((i: any) => `${i.namespace}/${i.key}`)).toEqual(['users/bob/pet']);
    // Bob's item keeps its vector; Ada's three leave the cache.
    expect(cached()).toBe(1);
  });

  it('answers a put while the provider is down, and finds the item once it is back', async () => {
    model.embedWith(() => {
      throw new Error('overloaded');
    });
    expect((await put('users/ada', 'pet', 'My kitten sleeps all day')).status).toBe(200);
    const down = await search({ namespace: 'users/ada', query: 'kitten', mode: 'semantic' });
    expectProblem(down, 502, 'embedding-failed');
    // Found by its words meanwhile.
    expect(keys(await search({ namespace: 'users/ada', query: 'kitten', mode: 'keyword' }))).toEqual(['pet']);
    model.embedWith(conceptEmbedding);
    let found: string[] = [];
    for (let i = 0; i < 50 && !found.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = keys(await search({ namespace: 'users/ada', query: 'feline', mode: 'semantic' }));
    }
    expect(found).toEqual(['pet']);
  });
});

describe('memory search without an embedding model', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app.close());

  it('is by words, and a search by meaning is a 409 naming the variable', async () => {
    await app.request('PUT', '/v1/memory/notes/a', { value: 'kitten' });
    const plain = await app.request('POST', '/v1/memory/search', { namespace: 'notes', query: 'kitten' });
    expect(plain.body.items.map((i: any) => i.key)).toEqual(['a']);
    const semantic = await app.request('POST', '/v1/memory/search', {
      namespace: 'notes',
      query: 'x',
      mode: 'semantic',
    });
    expectProblem(semantic, 409, 'embeddings-not-configured');
    expect(semantic.body.detail).toContain('EMBEDDING_MODEL');
    const wrong = await app.request('POST', '/v1/memory/search', { namespace: 'notes', query: 'x', mode: 'vector' });
    expectProblem(wrong, 400);
  });
});

describe('an embedding model that cannot be used', () => {
  it('stops the service at start, saying which variable to set', async () => {
    await expect(startTestApp({ env: { EMBEDDING_MODEL: 'anthropic/claude' } })).rejects.toThrow(
      'EMBEDDING_MODEL: Anthropic has no embedding models',
    );
    await expect(startTestApp({ env: { EMBEDDING_MODEL: 'openai/text-embedding-3-small' } })).rejects.toThrow(
      'set OPENAI_API_KEY',
    );
  });
});
