'use strict';
// Experiments: how close a dataset's run comes to the ideal makespan, and what the code scorers cost per item.
// The service runs as a child process on the embedded SQLite store, with RUN_CONCURRENCY equal to the experiment's
// concurrency, against a scripted Chat Completions server in this process (bench/scripted-model.js) whose every
// answer comes after `modelDelayMs`.
//
// 1. Makespan. A dataset of `items` tasks, one `contains` scorer; POST /v1/experiments with `Prefer: wait` and
// `concurrency` items at once. The ideal is ceil(items / concurrency) x modelDelayMs (each wave of model calls, with
// nothing between them); the figure is ideal / actual wall time of the POST (goal >= 0.9). Also reported: the most
// model requests open at once (at most `concurrency`), and, from the log, each item's time from its run's end to
// its score recorded (the scoring path: reading the run, scoring it, the commit).
// 2. Code scorers. Each code scorer type (exact, contains, json_schema, rule) scores a typical answer `calls` times
// in this process, awaited one by one (json_schema checks in the service's schema worker thread, as it does there);
// the figure is the mean time per score (goal < 2 ms per item).
// Usage: npm run build:bench && node bench/experiments.js [items=200] [concurrency=20] [modelDelayMs=1000] [calls=2000]
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, positional, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [items = 200, concurrency = 20, modelDelayMs = 1000, calls = 2000] = positional().map(Number);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function getJson(url, path) {
  const response = await fetch(url + path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function makespan(url, model) {
  await postJson(url, '/v1/agents', { name: 'bench-agent', model: 'openai-compatible/bench' });
  await postJson(url, '/v1/scorers', { name: 'says bench', type: 'contains' });
  const dataset = await postJson(url, '/v1/datasets', { name: 'bench', target: 'agent' });
  for (let i = 0; i < items; i++) {
    await postJson(url, `/v1/datasets/${dataset.id}/items`, { input: { task: `Task ${i}` }, expected: 'bench' });
  }
  const body = { dataset: dataset.id, target: { agent: 'bench-agent' }, scorers: ['says bench'], concurrency };
  const started = performance.now();
  const response = await fetch(`${url}/v1/experiments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=600' },
    body: JSON.stringify(body),
  });
  const experiment = await response.json();
  const wall = performance.now() - started;
  if (experiment.status !== 'succeeded') throw new Error(`The experiment is ${experiment.status} after the wait`);
  const ideal = Math.ceil(items / concurrency) * modelDelayMs;
  console.log(`1. makespan: ${items} items, concurrency ${concurrency}, every model call ${modelDelayMs} ms`);
  console.log(
    `  ideal ${(ideal / 1000).toFixed(1)} s / actual ${(wall / 1000).toFixed(3)} s = ${(ideal / wall).toFixed(3)} (goal >= 0.9: ${ideal / wall >= 0.9 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `  most model requests open at once: ${model.maxOpen} (goal <= ${concurrency}); mean score ${experiment.summary.scorers[0].mean}`,
  );
  // From each run's end to its item's score recorded, as the log has them.
  const events = [];
  for (let after = ''; ;) {
    const page = await getJson(url, `/v1/experiments/${experiment.id}/events?limit=200${after && `&after=${after}`}`);
    events.push(...page.events);
    if (!page.nextAfter || !page.events.length) break;
    after = page.nextAfter;
  }
  const scoredAt = new Map(
    events.filter((e) => e.type === 'ExperimentItemScored').map((e) => [e.data.runId, Date.parse(e.recordedAt)]),
  );
  const agents = await getJson(url, '/v1/agents?name=bench-agent');
  const lags = [];
  for (const [runId, at] of scoredAt) {
    const run = await getJson(url, `/v1/agents/${agents.agents[0].id}/runs/${runId}`);
    lags.push(at - Date.parse(run.endedAt));
  }
  lags.sort((a, b) => a - b);
  console.log(
    `  a run's end to its score recorded: median ${percentile(lags, 50)} ms, p95 ${percentile(lags, 95)} ms (ms clock of the log)`,
  );
  return ideal / wall;
}

async function codeScorers() {
  const { codeScore } = require('../dist/scorers/scoring/code-scorers');
  const answer = {
    input: { task: 'What is our refund policy?', context: {} },
    output: 'Our refund policy gives you 30 days to return any item, no questions asked.',
    outputObject: undefined,
    expected: 'refund policy',
    run: { toolCalls: [{ tool: 'http_get', input: { url: 'https://example.com' } }], usage: null, durationMs: 850 },
  };
  const scorers = [
    { type: 'exact', caseSensitive: false },
    { type: 'contains', caseSensitive: false },
    { type: 'json_schema', schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
    {
      type: 'rule',
      rule: {
        and: [
          { some: [{ var: 'run.toolCalls' }, { '==': [{ var: 'tool' }, 'http_get'] }] },
          { '<': [{ var: 'run.durationMs' }, 2000] },
        ],
      },
    },
  ];
  console.log(`2. code scorers: ${calls} scores each, one at a time`);
  let worst = 0;
  for (const scorer of scorers) {
    const subject = scorer.type === 'json_schema' ? { ...answer, output: '{"title": "Refunds"}' } : answer;
    for (let i = 0; i < 100; i++) await codeScore(scorer, subject);
    const started = performance.now();
    for (let i = 0; i < calls; i++) await codeScore(scorer, subject);
    const mean = (performance.now() - started) / calls;
    worst = Math.max(worst, mean);
    console.log(
      `  ${scorer.type.padEnd(12)} mean ${(mean * 1000).toFixed(1)} µs per score (goal < 2 ms: ${mean < 2 ? 'met' : 'MISSED'})`,
    );
  }
  return worst;
}

async function main() {
  const model = await startScriptedModel({ delayMs: modelDelayMs });
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-experiments-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(concurrency),
    MODEL_MAX_RETRIES: '0',
  });
  try {
    console.log(`service on sqlite, RUN_CONCURRENCY=${concurrency}; ${loadAverage()}`);
    await makespan(server.url, model);
  } finally {
    await server.stop();
    await model.close();
  }
  await codeScorers();
  console.log(loadAverage());
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
