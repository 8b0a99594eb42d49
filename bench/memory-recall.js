'use strict';
// What recall adds to a run. One service, two agents on `openai-compatible/bench` (a scripted Chat Completions
// server in this process that answers at once): one with `memory: {namespace: "bench/notes", recall: {limit: 5}}`,
// one without. The namespace holds `items` memory items (put first, 20 at a time), one in ten of which holds words
// of the runs' task, so that every recall finds five. Runs alternate between the two agents; each run's overhead is
// its wall latency (`Prefer: wait=30`) minus the scripted model's answer time, and the figure is the difference of
// the medians (goal: < 5 ms besides the embedding call). With --semantic, EMBEDDING_MODEL names the scripted
// server's embeddings (768 dimensions): recall is by meaning, each run's task embedded once, and the scripted
// call's time (the AI SDK's embedMany of one task from this process, against the same server) is taken off too.
// Usage: npm run build:bench && node bench/memory-recall.js [runs=200] [items=10000] [--semantic]
//        [--store=sqlite|esdb-test-double]
const autocannon = require('autocannon');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const lib = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 200, items = 10_000] = lib.positional().map(Number);
const storeName = lib.storeArgument();
const semantic = process.argv.includes('--semantic');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function seed(url) {
  let n = 0;
  const result = await autocannon({
    url,
    connections: 20,
    amount: items,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request) => {
          const i = n++;
          const text = i % 10 === 0 ? `answer briefly, note ${i}` : `an unrelated note about item ${i}`;
          return {
            ...request,
            path: `/v1/memory/bench%2Fnotes/note-${i}`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ value: { text } }),
          };
        },
      },
    ],
  });
  if (result['2xx'] !== items) throw new Error(`${items - result['2xx']} of ${items} puts were not accepted`);
}

/** The median time of the embedding call a recall makes: the AI SDK's embedMany of one task, from this process. */
async function embeddingCallMs(model) {
  const { embedMany } = require('ai');
  const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
  const embedder = createOpenAICompatible({ name: 'bench', baseURL: model.baseUrl }).embeddingModel('bench-embed');
  const times = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await embedMany({ model: embedder, values: [`answer briefly, bench-run-${i}`], maxRetries: 0 });
    times.push(performance.now() - started);
  }
  return median(times.slice(20));
}

async function main() {
  const model = await startScriptedModel();
  const store = await lib.startStore(storeName);
  const server = await lib.startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: lib.temporaryDir('bench-memory-recall-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    ...(semantic && { EMBEDDING_MODEL: 'openai-compatible/bench-embed' }),
    ...store.env,
  });
  try {
    await seed(server.url);
    const agent = (body) => lib.postJson(server.url, '/v1/agents', { model: 'openai-compatible/bench', ...body });
    const plain = await agent({ name: 'plain' });
    const memory = { maxMessages: 50, namespace: 'bench/notes', recall: { limit: 5 } };
    const recalling = await agent({ name: 'recalling', memory });
    const path = (id) => `/v1/agents/${id}/run`;
    const first = await lib.timedRun(server.url, path(recalling.id), model);
    if (first.latency <= 0) throw new Error('no run');
    const run = await (await fetch(`${server.url}/v1/agents/${recalling.id}/runs?limit=1`)).json();
    if (run.runs[0].recalled?.length !== 5) throw new Error(`a recall found ${run.runs[0].recalled?.length}, not 5`);
    for (let i = 0; i < 20; i++) {
      await lib.timedRun(server.url, path(plain.id), model);
      await lib.timedRun(server.url, path(recalling.id), model);
    }
    const without = [];
    const withRecall = [];
    model.queryEmbeddingMs.length = 0;
    for (let i = 0; i < runs; i++) {
      without.push((await lib.timedRun(server.url, path(plain.id), model)).overhead);
      withRecall.push((await lib.timedRun(server.url, path(recalling.id), model)).overhead);
    }
    const [a, b] = [median(withRecall), median(without)];
    const embedding = semantic ? await embeddingCallMs(model) : 0;
    const how = semantic ? 'by meaning' : 'by words';
    console.log(`service on ${storeName}, ${items} items, ${runs} runs each, alternating; ${lib.loadAverage()}`);
    console.log(`  overhead of a run that recalls 5 items ${how}: median ${a.toFixed(2)} ms`);
    console.log(`  overhead of a run without memory: median ${b.toFixed(2)} ms`);
    if (semantic)
      console.log(`  an embedding call of the task by the AI SDK from here: median ${embedding.toFixed(2)} ms`);
    console.log(`  difference, besides the embedding: ${(a - b - embedding).toFixed(2)} ms (goal < 5 ms)`);
  } finally {
    await server.stop();
    await store.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
