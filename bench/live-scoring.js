'use strict';
// Live scoring: how much scoring every run of an agent (sampling 1) costs the runs' throughput. The service runs as
// a child process on the embedded SQLite store, against a scripted Chat Completions server in this process that
// answers at once. One agent, whose rounds take turns (after a warm-up of both): `plain` rounds with no scorers,
// `scored` rounds with `scorers` that score every succeeded run by a code scorer (a JSON Logic rule over the answer
// and its run), set by PATCH before each round, so that the two differ in nothing else: a round is `runs` runs, `clients` at a time, each POST /v1/agents/{id}/run with
// `Prefer: wait=30`, timed from the first request sent to the last answer read. Throughput is runs / that time.
// A scored round also waits for the last score to be recorded (GET /v1/scores), and reports how long after its last
// run that was: scoring happens after the runs end, off their path, so its cost shows as CPU the runs share, and
// any backlog as this lag. The figure is the median scored throughput over the median plain one (goal: a drop
// under 5 %). Beside it, the service's own CPU time per run (from /proc/<pid>/stat) for each round, a scored round's
// scoring after its last run included: less noisy than wall time on a shared machine.
// Usage: npm run build:bench && node bench/live-scoring.js [runs=400] [clients=20] [rounds=7] [warmup=1000]
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, positional, postJson, loadAverage, cpuSecondsOf } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 400, clients = 20, rounds = 7, warmup = 1000] = positional().map(Number);
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: clients });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run, waited for; rejects unless it succeeded. */
function run(url, agentId, n) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/v1/agents/${agentId}/run`, {
      method: 'POST',
      agent: keepAlive,
      headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        const body = JSON.parse(text);
        if (response.statusCode === 200 && body.status === 'succeeded') resolve();
        else reject(new Error(`run ${n}: HTTP ${response.statusCode} ${text.slice(0, 200)}`));
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify({ task: `Answer briefly (bench-live-${n}).` }));
  });
}

let made = 0;
/** `count` runs of the agent, `clients` at a time: the wall time (ms) from the first sent to the last answered. */
async function round(url, agentId, count) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        next++;
        await run(url, agentId, ++made);
      }
    }),
  );
  return performance.now() - started;
}

async function patchJson(url, path, body) {
  const response = await fetch(`${url}${path}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`PATCH ${path}: HTTP ${response.status} ${await response.text()}`);
}

/** How many scores the agent's runs have, as GET /v1/scores sums them. */
async function scoreCount(url, agentId) {
  const response = await fetch(`${url}/v1/scores?agent=${agentId}`);
  const { scores } = await response.json();
  return scores.reduce((sum, group) => sum + group.count, 0);
}

/** Waits until the agent's runs have `expected` scores: the time (ms) it took from now. */
async function scoredBy(url, agentId, expected) {
  const started = performance.now();
  while ((await scoreCount(url, agentId)) < expected) {
    if (performance.now() - started > 60_000) throw new Error(`fewer than ${expected} scores after 60 s`);
    await sleep(5);
  }
  return performance.now() - started;
}

async function main() {
  const model = await startScriptedModel({ delayMs: 0 });
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-live-scoring-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(clients),
  });
  try {
    await postJson(server.url, '/v1/scorers', {
      name: 'answered briefly',
      type: 'rule',
      rule: { and: [{ '!!': [{ var: 'output' }] }, { '<': [{ var: 'run.durationMs' }, 60_000] }] },
    });
    const agentId = (await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' })).id;
    const scorers = { plain: [], scored: [{ scorer: 'answered briefly', sampling: 1 }] };
    const setScorers = (name) => patchJson(server.url, `/v1/agents/${agentId}`, { scorers: scorers[name] });
    console.log(`service on sqlite, RUN_CONCURRENCY=${clients}; ${loadAverage()}`);
    await round(server.url, agentId, warmup);
    await setScorers('scored');
    await round(server.url, agentId, warmup);
    let scoredSoFar = warmup;
    await scoredBy(server.url, agentId, scoredSoFar);

    const throughput = { plain: [], scored: [] };
    const cpuPerRun = { plain: [], scored: [] };
    const lags = [];
    for (let i = 0; i < rounds; i++) {
      // Each pair in turn starts with the other agent, so neither always runs first.
      for (const name of i % 2 === 0 ? ['plain', 'scored'] : ['scored', 'plain']) {
        await setScorers(name);
        const cpuBefore = cpuSecondsOf(server.pid);
        const ms = await round(server.url, agentId, runs);
        throughput[name].push((runs / ms) * 1000);
        if (name === 'scored') {
          scoredSoFar += runs;
          lags.push(await scoredBy(server.url, agentId, scoredSoFar));
        }
        // The service's CPU time for the round, the scoring after its last run included.
        cpuPerRun[name].push(((cpuSecondsOf(server.pid) - cpuBefore) * 1000) / runs);
      }
      const last = (name) => throughput[name][throughput[name].length - 1].toFixed(0);
      console.log(
        `  round ${i + 1}: plain ${last('plain')} runs/s, scored ${last('scored')} runs/s, last score ${lags[i].toFixed(1)} ms after the last run`,
      );
    }
    const ratio = median(throughput.scored) / median(throughput.plain);
    const drop = (1 - ratio) * 100;
    console.log(
      `live scoring at sampling 1: median ${median(throughput.scored).toFixed(0)} runs/s scored vs ${median(throughput.plain).toFixed(0)} plain = ${ratio.toFixed(3)} (a drop of ${drop.toFixed(1)} %; goal < 5 %: ${drop < 5 ? 'met' : 'missed'}); the last score at most ${Math.max(...lags).toFixed(1)} ms after a round's last run`,
    );
    const cpuRatio = median(cpuPerRun.scored) / median(cpuPerRun.plain);
    console.log(
      `service CPU per run: median ${median(cpuPerRun.scored).toFixed(3)} ms scored vs ${median(cpuPerRun.plain).toFixed(3)} ms plain = ${cpuRatio.toFixed(3)}`,
    );
    console.log(
      `scores recorded: ${await scoreCount(server.url, agentId)} of ${scoredSoFar} scored runs; ${loadAverage()}`,
    );
  } finally {
    await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
