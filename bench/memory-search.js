'use strict';
// Keyword search over memory. One service (SQLite unless --store says otherwise) is given `items` memory items in
// one namespace by PUT, 20 at a time, each a value of 12 words drawn from a vocabulary of 5,000 (a fixed seed, so
// every run holds the same items); then `searches` searches of two words from the same vocabulary, one at a time,
// each timed from request to answer. Figures: the PUT rate, and search latency median and p99 (goal: p99 < 20 ms
// over 100,000 items), with the hits per search.
// Usage: npm run build:bench && node bench/memory-search.js [items=100000] [searches=500] [--store=sqlite|esdb-test-double]
const autocannon = require('autocannon');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const lib = require('./lib');

const [items = 100_000, searches = 500] = lib.positional().map(Number);
const storeName = lib.storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A small deterministic generator (mulberry32), so that every run searches the same items. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(39);
const syllables = ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze', 'bo', 'da'];
const vocabulary = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});
const words = (count) => Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)]);

async function seed(url) {
  let n = 0;
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: 20,
    amount: items,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request) => ({
          ...request,
          path: `/v1/memory/bench%2Fnotes/note-${n++}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ value: { text: words(12).join(' '), n } }),
        }),
      },
    ],
  });
  if (result['2xx'] !== items) throw new Error(`${items - result['2xx']} of ${items} puts were not accepted`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${items} items put in ${seconds.toFixed(1)} s (${Math.round(items / seconds)} a second)`);
}

async function search(url) {
  const body = JSON.stringify({ namespace: 'bench', query: words(2).join(' '), limit: 10 });
  const sent = performance.now();
  const response = await fetch(`${url}/v1/memory/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`search answered ${response.status}: ${JSON.stringify(answer)}`);
  return { ms: performance.now() - sent, hits: answer.items.length };
}

async function main() {
  const store = await lib.startStore(storeName);
  const dir = lib.temporaryDir('bench-memory-search-');
  const server = await lib.startServer(join(__dirname, '..', 'dist', 'main.js'), { DATA_DIR: dir, ...store.env });
  try {
    console.log(`service on ${storeName}; ${lib.loadAverage()}`);
    await seed(server.url);
    await lib.settled(server.pid);
    for (let i = 0; i < 20; i++) await search(server.url); // warm-up
    const timed = [];
    for (let i = 0; i < searches; i++) timed.push(await search(server.url));
    const times = timed.map((t) => t.ms).sort((a, b) => a - b);
    const hits = timed.reduce((sum, t) => sum + t.hits, 0) / timed.length;
    console.log(
      `  keyword search over ${items} items (${searches} searches of two words, ${hits.toFixed(1)} hits each): ` +
        `median ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (goal: p99 < 20 ms)`,
    );
    console.log(lib.loadAverage());
  } finally {
    await server.stop();
    await store.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
