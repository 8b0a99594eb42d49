'use strict';
// Memory: the service's resident memory after 100,000 agents were created through the API, and its heap after a
// full GC (asked of bench/gc-probe.js, preloaded in this benchmark only). The service runs with `npm start`'s flags.
// Usage: npm run build:bench && node bench/memory.js [agents=100000] [--store=sqlite|esdb-test-double]
// BENCH_SERVICE_MAIN=path/to/main.js measures another build (e.g. a copy of dist from before a change).
const autocannon = require('autocannon');
const { join } = require('node:path');
const lib = require('./lib');

const [agents = 100_000] = lib.positional().map(Number);
const GOAL_MB = 150;

async function main() {
  const store = await lib.startStore(lib.storeArgument());
  const dir = lib.temporaryDir('bench-memory-');
  const probe = join(dir, 'gc-probe.json');
  const { nodeArgs, env } = lib.withGcProbe(probe);
  const server = await lib.startServer(
    process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dir, ...env, ...store.env },
    '/health',
    { nodeArgs },
  );
  try {
    const idle = lib.memoryOf(server.pid);
    const started = Date.now();
    const result = await autocannon({
      url: server.url,
      connections: 10,
      amount: agents,
      requests: lib.createAgentRequests('mem'),
    });
    const seconds = (Date.now() - started) / 1000;
    const listed = await (await fetch(`${server.url}/v1/agents?limit=1`)).json();
    const after = lib.memoryOf(server.pid);
    const heap = await lib.heapAfterGc(server, probe);
    console.log(`node flags: ${lib.serviceNodeFlags().join(' ') || '(none)'}`);
    console.log(
      `created ${result['2xx']} agents in ${seconds.toFixed(1)} s (non-2xx: ${result.non2xx}); list answers: ${listed.agents.length === 1}`,
    );
    console.log(`RSS at start: ${idle.rssMb.toFixed(0)} MB`);
    console.log(
      `RSS after ${agents} agents: ${after.rssMb.toFixed(0)} MB, peak ${after.peakRssMb.toFixed(0)} MB (goal < ${GOAL_MB} MB); ${lib.loadAverage()}`,
    );
    console.log(
      `after a full GC: heap used ${heap.heapUsed.toFixed(1)} MB of ${heap.heapTotal.toFixed(1)} MB, RSS ${heap.rss.toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
    await store.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
