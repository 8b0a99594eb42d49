'use strict';
// Thread history: what a run on a long thread costs more than a run on a new one. One agent on
// `openai-compatible/bench` (a scripted Chat Completions server in this process that answers at once); a thread
// is filled with 1,000 messages (500 runs through POST /v1/threads/{id}/runs), then runs alternate between that
// thread and a new thread each time. Each run's overhead is its wall latency (`Prefer: wait=30`) minus the
// scripted model's answer time; the figure is the difference of the medians (goal: < 5 ms).
// Usage: npm run build:bench && node bench/thread-history.js [runs=100] [messages=1000] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  startServer,
  temporaryDir,
  storeArgument,
  positional,
  startStore,
  postJson,
  loadAverage,
  timedRun,
} = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 100, messages = 1000] = positional().map(Number);
const storeName = storeArgument();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One run on the thread, waited for: its overhead (latency minus the model's answer time), in ms. */
async function runOn(url, threadId, model) {
  return (await timedRun(url, `/v1/threads/${threadId}/runs`, model)).overhead;
}

async function newThread(url, agentId) {
  return (await postJson(url, '/v1/threads', { agentId })).id;
}

async function main() {
  const model = await startScriptedModel();
  const store = await startStore(storeName);
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-thread-history-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    ...store.env,
  });
  try {
    const agentId = (await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' })).id;
    const long = await newThread(server.url, agentId);
    const filling = performance.now();
    for (let i = 0; i < messages / 2; i++) await runOn(server.url, long, model);
    let count = 0;
    while (count < messages) {
      count = (await (await fetch(`${server.url}/v1/threads/${long}`)).json()).messageCount;
      if (count < messages) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    console.log(`thread filled with ${count} messages in ${((performance.now() - filling) / 1000).toFixed(1)} s`);

    for (let i = 0; i < 10; i++) await runOn(server.url, await newThread(server.url, agentId), model); // warm-up
    const onLong = [];
    const onNew = [];
    for (let i = 0; i < runs; i++) {
      onLong.push(await runOn(server.url, long, model));
      onNew.push(await runOn(server.url, await newThread(server.url, agentId), model));
    }
    const [a, b] = [median(onLong), median(onNew)];
    console.log(`service on ${storeName}, ${runs} runs each, alternating; ${loadAverage()}`);
    console.log(`  overhead of a run on the ${count}-message thread: median ${a.toFixed(2)} ms`);
    console.log(`  overhead of a run on a new thread:            median ${b.toFixed(2)} ms`);
    console.log(`  difference: ${(a - b).toFixed(2)} ms (goal < 5 ms)`);
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
