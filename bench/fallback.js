'use strict';
// Fallback latency: from a failed model call's answer to the next model's request. One agent on
// `openai-compatible/broken`, which a scripted Chat Completions server in this process always answers with a 500,
// with `fallbackModels: ["openai-compatible/bench"]`, which it answers at once; the service makes no retries
// (MODEL_MAX_RETRIES=0), so the 500 is the call's answer. The server stamps when it wrote the 500 and when the
// backup's request arrived (one clock: the bench process's), and the figure is the difference, median and p99
// (goal: median < 20 ms).
// Beside it, the baseline: the same two calls made directly from this process with the AI SDK (a streamText to the
// failing model, and on its error a streamText to the backup), taking turns with the runs one for one.
// Each request is tagged `bench-run-<n>` in its task (runs from 0, the direct calls from 500,000, warm-ups higher).
// Usage: npm run build:bench && node bench/fallback.js [runs=200] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { startServer, temporaryDir, storeArgument, positional, startStore, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 200] = positional().map(Number);
const storeName = storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Ms from the failure written to the next request's arrival, for the requests tagged `tag`. */
function gapOf(model, tag) {
  const failed = model.events.find((event) => event.tag === tag && event.kind === 'failed');
  const arrived = model.events.find((event) => event.tag === tag && event.kind === 'arrived');
  if (!failed || !arrived) throw new Error(`${tag}: no failure or no fallback request was seen`);
  return arrived.at - failed.at;
}

/** The two calls made directly with the AI SDK: the failing one, then on its error the backup. */
async function directFallback(model, tag) {
  const { streamText } = require('ai');
  const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
  directFallback.provider ??= createOpenAICompatible({ name: 'bench', baseURL: model.baseUrl, includeUsage: true });
  for (const name of ['broken', 'bench']) {
    const result = streamText({
      model: directFallback.provider(name),
      messages: [{ role: 'user', content: `Answer briefly (${tag}).` }],
      maxRetries: 0,
      onError: () => undefined,
    });
    let failed = false;
    for await (const part of result.fullStream) if (part.type === 'error') failed = true;
    if (!failed) return;
  }
}

async function run(url, agentId, tag) {
  const ran = await fetch(`${url}/v1/agents/${agentId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    body: JSON.stringify({ task: `Answer briefly (${tag}).` }),
  });
  const body = await ran.json();
  if (body.status !== 'succeeded' || body.answeredModel !== 'openai-compatible/bench') {
    throw new Error(`run ${body.id} is ${body.status}, answered by ${body.answeredModel}`);
  }
}

async function main() {
  const model = await startScriptedModel({ failing: ['broken'] });
  const store = await startStore(storeName);
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-fallback-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    MODEL_MAX_RETRIES: '0',
    ...store.env,
  });
  try {
    const agent = await postJson(server.url, '/v1/agents', {
      name: 'bench',
      model: 'openai-compatible/broken',
      fallbackModels: ['openai-compatible/bench'],
    });
    for (let i = 0; i < 10; i++) {
      await run(server.url, agent.id, `bench-run-${900_000 + i}`);
      await directFallback(model, `bench-run-${950_000 + i}`);
    }
    const service = [];
    const direct = [];
    for (let i = 0; i < runs; i++) {
      await run(server.url, agent.id, `bench-run-${i}`);
      service.push(gapOf(model, `bench-run-${i}`));
      await directFallback(model, `bench-run-${500_000 + i}`);
      direct.push(gapOf(model, `bench-run-${500_000 + i}`));
    }
    service.sort((a, b) => a - b);
    direct.sort((a, b) => a - b);
    const ms = (value) => value.toFixed(1);
    console.log(`service on ${storeName}, ${runs} runs that fell back; ${loadAverage()}`);
    console.log(
      `  failed answer to the fallback's request: median ${ms(percentile(service, 50))} ms, p99 ${ms(percentile(service, 99))} ms (goal: median < 20 ms)`,
    );
    console.log(
      `  the same two calls made directly with the AI SDK: median ${ms(percentile(direct, 50))} ms, p99 ${ms(percentile(direct, 99))} ms`,
    );
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
