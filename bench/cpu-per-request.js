'use strict';
// CPU per command: the service process's CPU time (user + system, from /proc, its SQLite writer thread included)
// per POST /v1/agents, for one build or several taking turns. CPU time is far steadier than throughput on a shared
// machine, whose other load moves req/s but hardly the work a request costs.
// Usage: npm run build:bench && node bench/cpu-per-request.js [requests=6000] [rounds=3] [path/to/main.js ...]
// With no paths it measures dist/main.js; name an earlier build (e.g. .bench-before/dist/main.js, see
// docs/benchmarks.md) beside it to compare, round by round.
const autocannon = require('autocannon');
const { join } = require('node:path');
const { startServer, temporaryDir, cpuSecondsOf, createAgentRequests, loadAverage } = require('./lib');

const numbers = process.argv.slice(2).filter((arg) => /^\d+$/.test(arg));
const builds = process.argv.slice(2).filter((arg) => !/^\d+$/.test(arg));
const [requests = 6000, rounds = 3] = numbers.map(Number);
const WARMUP = 1500;
if (builds.length === 0) builds.push(join(__dirname, '..', 'dist', 'main.js'));

function fire(url, amount, prefix) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 10, amount, requests: createAgentRequests(prefix) }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

/** CPU ms per request of one fresh server of `main`, after a warm-up. */
async function measure(main, label) {
  const server = await startServer(main, { DATA_DIR: temporaryDir('cpu-per-request-') });
  try {
    await fire(server.url, WARMUP, `warm-${label}`);
    const before = cpuSecondsOf(server.pid);
    const result = await fire(server.url, requests, `measured-${label}`);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${main}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return ((cpuSecondsOf(server.pid) - before) * 1000) / requests;
  } finally {
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  console.log(`POST /v1/agents, ${requests} requests after ${WARMUP} of warm-up, 10 connections, ${rounds} rounds`);
  const figures = builds.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, build] of builds.entries()) figures[i].push(await measure(build, `${round}-${i}`));
    const row = builds.map((build, i) => `${build} ${figures[i].at(-1).toFixed(3)} ms`).join(', ');
    console.log(`round ${round}: ${row} (${loadAverage()})`);
  }
  for (const [i, build] of builds.entries())
    console.log(`median CPU per request, ${build}: ${median(figures[i]).toFixed(3)} ms`);
  if (builds.length > 1)
    console.log(`ratio ${builds[1]} / ${builds[0]}: ${(median(figures[1]) / median(figures[0])).toFixed(2)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
