'use strict';
// POST /v1/agents throughput of the service against the bare Fastify + SQLite baseline, same machine, same run.
// Baseline and service alternate for several rounds, so that a noisy neighbour hits both; the ratio is the median.
// Usage: npm run build:bench && node bench/command-throughput.js [seconds=10] [connections=10] [rounds=3] [--store=sqlite|esdb-test-double]
// BENCH_COMPARE_MAIN=path/to/main.js also measures another build each round against the same baseline.
// BENCH_SERVICE_MAIN=path/to/main.js measures another build of the service (e.g. a copy of dist from before a change).
const autocannon = require('autocannon');
const { join } = require('node:path');
const { startServer, temporaryDir, createAgentRequests, storeArgument, positional, startStore } = require('./lib');

const [seconds = 10, connections = 10, rounds = 3] = positional().map(Number);
const storeName = storeArgument();

async function measure(label, script, env = {}) {
  const server = await startServer(script, { DATA_DIR: temporaryDir(`bench-${label}-`), ...env });
  try {
    await autocannon({ url: server.url, connections, duration: 2, requests: createAgentRequests(`warmup-${label}`) });
    const result = await autocannon({
      url: server.url,
      connections,
      duration: seconds,
      requests: createAgentRequests(label),
    });
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
  console.log(
    `POST /v1/agents, ${connections} connections, ${seconds} s each, ${rounds} rounds, service on ${storeName}`,
  );
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
