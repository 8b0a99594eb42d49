'use strict';
// Command throughput of the service against the bare Fastify + SQLite baseline (one insert per request), same
// machine, same run. Baseline and service alternate for several rounds, so that a noisy neighbour hits both; the
// ratio is the median. Commands (--command=):
//   agents   POST /v1/agents, each with a new name (default);
//   trigger  POST /v1/workflows/{id}/trigger, round robin over 100 manual workflows;
//   run      POST /v1/agents/{id}/run, round robin over 100 agents.
// Runs are recorded, not executed (RUN_EXECUTOR_ENABLED=false): this measures the command, bench/run-overhead.js
// the execution.
// Usage: npm run build:bench && node bench/command-throughput.js [seconds=10] [connections=10] [rounds=3] [--store=sqlite|esdb-test-double] [--command=agents|trigger|run]
// BENCH_COMPARE_MAIN=path/to/main.js also measures another build each round against the same baseline.
// BENCH_SERVICE_MAIN=path/to/main.js measures another build of the service (e.g. a copy of dist from before a change).
const autocannon = require('autocannon');
const { join } = require('node:path');
const { startServer, temporaryDir, createAgentRequests, storeArgument, positional, startStore } = require('./lib');

const [seconds = 10, connections = 10, rounds = 3] = positional().map(Number);
const storeName = storeArgument();
const command = (process.argv.find((arg) => arg.startsWith('--command=')) ?? '--command=agents').slice(10);
const TARGETS = 100;

const post = async (url, path, body) => {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
};

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

async function measure(label, script, env = {}) {
  const server = await startServer(script, {
    DATA_DIR: temporaryDir(`bench-${label}-`),
    RUN_EXECUTOR_ENABLED: 'false',
    ...env,
  });
  try {
    const requests = await requestsFor(label, server.url, label === 'baseline');
    await autocannon({ url: server.url, connections, duration: 2, requests: requests('warmup') });
    const result = await autocannon({ url: server.url, connections, duration: seconds, requests: requests('bench') });
    const figures = {
      requestsPerSecond: Math.round(result.requests.average),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
    console.log(label.padEnd(9), JSON.stringify(figures));
    if (figures.non2xx > 0)
      console.log(
        `  WARNING: ${label} answered ${figures.non2xx} non-2xx responses: the figure is not of created agents`,
      );
    return figures;
  } finally {
    await server.stop();
  }
}

async function main() {
  console.log(`${command}, ${connections} connections, ${seconds} s each, ${rounds} rounds, service on ${storeName}`);
  const ratios = [];
  const otherRatios = [];
  for (let round = 1; round <= rounds; round++) {
    const baseline = await measure('baseline', join(__dirname, 'baseline-server.js'));
    const store = await startStore(storeName);
    try {
      const service = await measure(
        'service',
        process.env.BENCH_SERVICE_MAIN ?? join(__dirname, '..', 'dist', 'main.js'),
        store.env,
      );
      ratios.push(service.requestsPerSecond / baseline.requestsPerSecond);
      console.log(`round ${round}: ratio ${ratios[ratios.length - 1].toFixed(2)}`);
      if (process.env.BENCH_COMPARE_MAIN) {
        const other = await measure('compared', process.env.BENCH_COMPARE_MAIN, store.env);
        otherRatios.push(other.requestsPerSecond / baseline.requestsPerSecond);
        console.log(`round ${round}: compared build's ratio ${otherRatios[otherRatios.length - 1].toFixed(2)}`);
      }
    } finally {
      await store.stop();
    }
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  console.log(`median ratio service/baseline: ${median.toFixed(2)} (goal >= 1.0)`);
  if (otherRatios.length) {
    const otherMedian = [...otherRatios].sort((a, b) => a - b)[Math.floor(otherRatios.length / 2)];
    console.log(`median ratio compared build (BENCH_COMPARE_MAIN)/baseline: ${otherMedian.toFixed(2)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
