'use strict';
// Command throughput of the service against the bare Fastify + SQLite baseline (one insert per request), same
// machine, same run. Both stay up and take turns in one-second slices, so that a slow phase of the disk or a noisy
// neighbour hits both; each round starts fresh servers, and the ratio is the median of the rounds. Commands (--command=):
//   agents   POST /v1/agents, each with a new name (default);
//   trigger  POST /v1/workflows/{id}/trigger, round robin over 100 manual workflows;
//   run      POST /v1/agents/{id}/run, round robin over 100 agents.
// Runs are recorded, not executed (RUN_EXECUTOR_ENABLED=false): this measures the command, bench/run-overhead.js
// the execution.
// Usage: npm run build:bench && node bench/command-throughput.js [seconds=10] [connections=10] [rounds=3] [--store=sqlite|esdb-test-double] [--command=agents|trigger|run]
// BENCH_COMPARE_MAIN=path/to/main.js also measures another build each round against the same baseline.
// BENCH_COMPARE_NODE_ARGS="--flag ..." runs that build with these node flags instead of npm start's (e.g. the same
// build with other V8 flags).
// BENCH_SERVICE_MAIN=path/to/main.js measures another build of the service (e.g. a copy of dist from before a change).
const autocannon = require('autocannon');
const { join } = require('node:path');
const {
  startServer,
  temporaryDir,
  createAgentRequests,
  storeArgument,
  positional,
  startStore,
  loadAverage,
  postJson: post,
  sliceTarget,
  loadSlice,
  sliceFigures,
} = require('./lib');

const [seconds = 10, connections = 10, rounds = 3] = positional().map(Number);
const storeName = storeArgument();
const command = (process.argv.find((arg) => arg.startsWith('--command=')) ?? '--command=agents').slice(10);
const TARGETS = 100;
const compareNodeArgs = (process.env.BENCH_COMPARE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** Seconds of each turn of load; the servers take turns until each had `seconds`. */
const SLICE_SECONDS = 1;

/** Round robin over `paths`, each request with a body of its own. */
function roundRobin(paths, body) {
  let n = 0;
  return [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, path: paths[n % paths.length], body: JSON.stringify(body(++n)) }),
    },
  ];
}

/** The requests of the measured command (the baseline always inserts an agent row: its one cheap write). */
async function requestsFor(label, url, isBaseline) {
  if (command === 'agents' || isBaseline) return (prefix) => createAgentRequests(`${prefix}-${label}`);
  const agents = [];
  for (let i = 0; i < TARGETS; i++)
    agents.push(await post(url, '/v1/agents', { name: `${label}-agent-${i}`, model: 'openai/gpt-4o-mini' }));
  if (command === 'run') {
    const paths = agents.map((agent) => `/v1/agents/${agent.id}/run`);
    return () => roundRobin(paths, (n) => ({ task: `Task ${n}`, context: { n } }));
  }
  if (command !== 'trigger') throw new Error('--command must be agents, trigger or run');
  const paths = [];
  for (let i = 0; i < TARGETS; i++) {
    const workflow = await post(url, '/v1/workflows', {
      name: `${label}-workflow-${i}`,
      steps: [{ agent: agents[i].name, action: 'go' }],
    });
    paths.push(`/v1/workflows/${workflow.id}/trigger`);
  }
  return () => roundRobin(paths, (n) => ({ input: { n } }));
}

/** A server of the comparison, started with its targets made and warmed up. */
async function prepare(label, script, env = {}, nodeArgs = []) {
  const server = await startServer(
    script,
    { DATA_DIR: temporaryDir(`bench-${label}-`), RUN_EXECUTOR_ENABLED: 'false', ...env },
    '/health',
    { nodeArgs },
  );
  const requests = await requestsFor(label, server.url, label === 'baseline');
  await autocannon({ url: server.url, connections, duration: 2, requests: requests('warmup') });
  return sliceTarget(label, server, requests);
}

/**
 * One round: fresh servers, then `seconds` of load on each, in slices of SLICE_SECONDS that take turns, so that a
 * slow phase of the disk or a noisy neighbour falls on every server alike.
 */
async function round(number, storeEnv) {
  const targets = [await prepare('baseline', join(__dirname, 'baseline-server.js'))];
  try {
    targets.push(
      await prepare('service', process.env.BENCH_SERVICE_MAIN ?? join(__dirname, '..', 'dist', 'main.js'), storeEnv),
    );
    if (process.env.BENCH_COMPARE_MAIN)
      targets.push(await prepare('compared', process.env.BENCH_COMPARE_MAIN, storeEnv, compareNodeArgs));
    const slices = Math.max(1, Math.round(seconds / SLICE_SECONDS));
    for (let index = 0; index < slices; index++) {
      // Alternate who goes first, so that neither always follows the other's last writes.
      const order = index % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) await loadSlice(target, index, { connections, seconds: SLICE_SECONDS });
    }
    const [baseline, ...others] = targets.map(sliceFigures);
    const ratios = others.map((other) => other.requestsPerSecond / baseline.requestsPerSecond);
    console.log(
      `round ${number}: ratio ${ratios.map((ratio) => ratio.toFixed(2)).join(', compared build ')} (${loadAverage()})`,
    );
    return ratios;
  } finally {
    await Promise.all(targets.map((target) => target.server.stop()));
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  console.log(`${command}, ${connections} connections, ${seconds} s each, ${rounds} rounds, service on ${storeName}`);
  const ratios = [];
  for (let number = 1; number <= rounds; number++) {
    const store = await startStore(storeName);
    try {
      ratios.push(await round(number, store.env));
    } finally {
      await store.stop();
    }
  }
  console.log(`median ratio service/baseline: ${median(ratios.map((r) => r[0])).toFixed(2)} (goal >= 1.0)`);
  if (process.env.BENCH_COMPARE_MAIN)
    console.log(
      `median ratio compared build (BENCH_COMPARE_MAIN)/baseline: ${median(ratios.map((r) => r[1])).toFixed(2)}`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
