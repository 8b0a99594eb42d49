'use strict';
// Run overhead: what the service itself adds to an agent run. One agent on `openai-compatible/bench`, pointed
// at a scripted Chat Completions server in this process that answers at once (streamed, two text chunks); each
// run is `POST /v1/agents/{id}/run` with `Prefer: wait=30`, and its overhead is the request's wall latency
// minus the time the scripted model took to answer that run's model request. Sequential runs first (after a
// warm-up), then the same with several clients at once (each run still gets an executor slot: RUN_CONCURRENCY
// is at least the number of clients).
// Beside it, the baseline the goal is stated against: the same AI SDK call made directly from this process
// (streamText through @ai-sdk/openai-compatible to the same scripted server, the agent's instructions as the system
// prompt), taking turns with the runs one for one; the run's overhead over it is the difference of the medians.
// BENCH_SERVICE_MAIN=path/to/main.js measures another build of the service.
// Usage: npm run build:bench && node bench/run-overhead.js [runs=300] [clients=10] [warmup=20] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, storeArgument, positional, startStore, timedRun } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 300, clients = 10, warmup = 20] = positional().map(Number);
const storeName = storeArgument();

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

let runsMade = 0;

/** The same model call as a run's, made directly with the AI SDK: its wall time (ms). */
async function directCall(model, tag) {
  const { streamText } = require('ai');
  const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
  directCall.provider ??= createOpenAICompatible({ name: 'bench', baseURL: model.baseUrl, includeUsage: true });
  const started = performance.now();
  const result = streamText({
    model: directCall.provider('bench'),
    system: 'Answer briefly.',
    messages: [{ role: 'user', content: `Answer briefly (${tag}).` }],
    maxRetries: 0,
  });
  for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
  return performance.now() - started;
}

/** `total` direct calls and runs, taking turns, one at a time: the medians of each and their difference. */
async function besideDirect(url, agentId, model, total) {
  const direct = [];
  const runs = [];
  for (let i = 0; i < total; i++) {
    direct.push(await directCall(model, `direct-${i}`));
    runs.push((await timedRun(url, `/v1/agents/${agentId}/run`, model)).latency);
    runsMade++;
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { direct: median(direct), run: median(runs) };
}

/** `total` runs by `concurrency` clients, each one after the other. */
async function measure(url, agentId, model, total, concurrency) {
  const results = [];
  let next = 0;
  const client = async () => {
    while (next < total) {
      next++;
      runsMade++;
      results.push(await timedRun(url, `/v1/agents/${agentId}/run`, model));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  return { results, seconds: (performance.now() - started) / 1000 };
}

function report(label, { results, seconds }) {
  const figure = (key) => {
    const sorted = results.map((r) => r[key]).sort((a, b) => a - b);
    return `median ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  };
  console.log(
    `${label}: ${results.length} runs in ${seconds.toFixed(1)} s (${(results.length / seconds).toFixed(0)} runs/s)`,
  );
  console.log(`  overhead (latency - model): ${figure('overhead')}`);
  console.log(`  latency:                    ${figure('latency')}`);
  console.log(`  model answer time:          ${figure('modelMs')}`);
}

async function main() {
  const model = await startScriptedModel();
  const store = await startStore(storeName);
  const server = await startServer(process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-run-overhead-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(Math.max(10, clients)),
    ...store.env,
  });
  try {
    const created = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', model: 'openai-compatible/bench', instructions: 'Answer briefly.' }),
    });
    if (created.status !== 201) throw new Error(`agent not created: HTTP ${created.status} ${await created.text()}`);
    const agentId = (await created.json()).id;
    console.log(`agent runs on openai-compatible/bench (scripted, answers at once), service on ${storeName}`);

    await measure(server.url, agentId, model, warmup, 1);
    await besideDirect(server.url, agentId, model, Math.min(warmup, 5));
    const beside = await besideDirect(server.url, agentId, model, runs);
    console.log(
      `beside the same AI SDK call made directly (${runs} each, taking turns): run median ${beside.run.toFixed(2)} ms, ` +
        `direct median ${beside.direct.toFixed(2)} ms, overhead ${(beside.run - beside.direct).toFixed(2)} ms (goal < 5 ms)`,
    );
    report('sequential (1 client)', await measure(server.url, agentId, model, runs, 1));
    if (clients > 1) {
      await measure(server.url, agentId, model, warmup, clients);
      report(`concurrent (${clients} clients)`, await measure(server.url, agentId, model, runs, clients));
    }
    console.log(`model requests: ${model.requests} (runs: ${runsMade}); goal: median overhead < 5 ms (sequential)`);
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
