'use strict';
// GET /v1/usage at many ended runs: the answer time of the totals and of each grouping, over all time and over a
// window. The log is seeded with `runs` agent runs (queued, then succeeded with usage and cost), over 20 agents,
// 4 models and 90 days, then the service rebuilds its read models from it and is asked. Goal at 100,000 runs:
// every answer in milliseconds (< 50 ms).
// Usage: npm run build:bench && node bench/usage-query.js [runs=100000] [repeats=20]
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const { startServer, temporaryDir, positional, loadAverage, timedGet } = require('./lib');

const [runs = 100_000, repeats = 20] = positional().map(Number);
const MODELS = ['openai/gpt-4o', 'openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'ollama/llama3.2'];
const START = Date.parse('2026-08-01T00:00:00.000Z');
const event = (type, data) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });

async function seed(file) {
  const store = new SqliteEventStore({ file, synchronous: 'NORMAL' });
  let pending = [];
  for (let i = 0; i < runs; i++) {
    const runId = `agentrun_${String(i).padStart(26, '0')}`;
    const agentId = `agent_${String(i % 20).padStart(26, '0')}`;
    const model = MODELS[i % MODELS.length];
    const endedAt = new Date(START + Math.floor((i / runs) * 90 * 86_400_000)).toISOString();
    const usage = { inputTokens: 1000 + (i % 500), outputTokens: 200 + (i % 100), costUsd: 0.001 * (i % 7) };
    const queued = { id: runId, agentId, model, task: 'go', context: {}, createdAt: endedAt };
    const ended = { runId, agentId, model, usage, attempts: 1, endedAt, output: 'done' };
    pending.push(
      store.append(`agentrun-${runId}`, [event('AgentRunQueued', queued), event('AgentRunSucceeded', ended)], {
        expected: 'any',
      }),
    );
    if (pending.length === 1000) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  await store.close();
}

async function main() {
  const dataDir = temporaryDir('bench-usage-');
  let started = Date.now();
  await seed(join(dataDir, 'events.sqlite'));
  console.log(`seeded ${runs} ended runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  const server = await startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dataDir, RUN_EXECUTOR_ENABLED: 'false' },
    '/health/ready',
    { timeoutMs: 600_000 },
  );
  console.log(`read models rebuilt and ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    const queries = [
      '/v1/usage',
      '/v1/usage?groupBy=agent',
      '/v1/usage?groupBy=model',
      '/v1/usage?groupBy=day',
      '/v1/usage?from=2026-09-01&to=2026-10-01&groupBy=day',
    ];
    const all = await timedGet(server.url, '/v1/usage');
    if (all.body.totals.runs !== runs) throw new Error(`counted ${all.body.totals.runs} runs, not ${runs}`);
    for (const path of queries) {
      const times = [];
      for (let i = 0; i < repeats; i++) times.push((await timedGet(server.url, path)).ms);
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)];
      console.log(`${path.padEnd(55)} median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
    }
    console.log(`(${loadAverage()}); goal: every answer < 50 ms`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
