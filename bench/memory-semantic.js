'use strict';
// Semantic memory search. One SQLite service with EMBEDDING_MODEL pointed at a scripted embeddings server in this
// process (bench/scripted-model.js's `POST /v1/embeddings`, a test double: each text gets a deterministic random
// vector of 768 dimensions) is given `items` memory items by PUT, 100 at a time; then `searches` semantic searches, one at a
// time, each timed from request to answer, with the longest event-loop stall in the service over them (a timer
// probe preloaded into it, bench/stall-probe.js). In the same run, as baselines: the same searches by words, and
// the scripted server's own time per query embedding (the provider's part of a search).
// Goals: p99 < 50 ms over 100,000 vectors of 768 dimensions; no stall over 20 ms.
// Usage: npm run build:bench && node bench/memory-semantic.js [items=100000] [searches=300]
const autocannon = require('autocannon');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const lib = require('./lib');
const { readStall } = require('./hostile-input/probe');
const { startScriptedModel } = require('./scripted-model');

const [items = 100_000, searches = 300] = lib.positional().map(Number);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function seed(url) {
  let n = 0;
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: 100,
    amount: items,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request) => ({
          ...request,
          path: `/v1/memory/bench%2Fnotes/note-${n}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ value: { text: `note number ${n++}` } }),
        }),
      },
    ],
  });
  if (result['2xx'] !== items) throw new Error(`${items - result['2xx']} of ${items} puts were not accepted`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${items} items put and embedded in ${seconds.toFixed(1)} s (${Math.round(items / seconds)} a second)`);
}

async function search(url, mode, i) {
  const body = JSON.stringify({ namespace: 'bench', query: `what about ${i}`, limit: 10, mode });
  const sent = performance.now();
  const response = await fetch(`${url}/v1/memory/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`search answered ${response.status}: ${JSON.stringify(answer)}`);
  return performance.now() - sent;
}

async function timed(server, probeFile, mode) {
  for (let i = 0; i < 20; i++) await search(server.url, mode, -i); // warm-up
  await readStall(server, probeFile);
  const times = [];
  for (let i = 0; i < searches; i++) times.push(await search(server.url, mode, i));
  const { maxMs } = await readStall(server, probeFile);
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99), stall: maxMs };
}

async function main() {
  const embeddings = await startScriptedModel();
  const dir = lib.temporaryDir('bench-memory-semantic-');
  const probeFile = join(dir, 'stall.json');
  const server = await lib.startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    {
      DATA_DIR: dir,
      OPENAI_COMPATIBLE_BASE_URL: embeddings.baseUrl,
      EMBEDDING_MODEL: 'openai-compatible/bench-embed',
      STALL_PROBE_FILE: probeFile,
    },
    '/health',
    { nodeArgs: [...lib.serviceNodeFlags(), '-r', join(__dirname, 'stall-probe.js')] },
  );
  try {
    console.log(`service on sqlite, 768 dimensions; ${lib.loadAverage()}`);
    await seed(server.url);
    await lib.settled(server.pid);
    console.log(`texts embedded: ${embeddings.embedded}; service RSS ${lib.memoryOf(server.pid).rssMb.toFixed(0)} MB`);
    const semantic = await timed(server, probeFile, 'semantic');
    const keyword = await timed(server, probeFile, 'keyword');
    const provider = [...embeddings.queryEmbeddingMs].sort((a, b) => a - b);
    const line = (name, f) =>
      `  ${name}: median ${f.median.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, longest stall ${f.stall.toFixed(1)} ms`;
    console.log(`${searches} searches over ${items} items, one at a time:`);
    console.log(`${line('semantic', semantic)} (goals: p99 < 50 ms, stall < 20 ms)`);
    console.log(`${line('keyword (baseline)', keyword)}`);
    console.log(
      `  of which the scripted server's answer to a query embedding: median ${percentile(provider, 50).toFixed(2)} ms`,
    );
    console.log(`  semantic ÷ keyword p99: ${(semantic.p99 / keyword.p99).toFixed(2)}; ${lib.loadAverage()}`);
  } finally {
    await server.stop();
    await embeddings.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
