'use strict';
// Memory: the service's resident memory after 100,000 agents were created through the API.
// Usage: npm run build:bench && node bench/memory.js [agents=100000] [--store=sqlite|esdb-test-double]
const autocannon = require('autocannon');
const { join } = require('node:path');
const { startServer, temporaryDir, memoryOf, createAgentRequests, storeArgument, positional, startStore } = require('./lib');

const [agents = 100_000] = positional().map(Number);

async function main() {
  const store = await startStore(storeArgument());
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), { DATA_DIR: temporaryDir('bench-memory-'), ...store.env });
  try {
    const idle = memoryOf(server.pid);
    const started = Date.now();
    const result = await autocannon({ url: server.url, connections: 10, amount: agents, requests: createAgentRequests('mem') });
    const seconds = (Date.now() - started) / 1000;
    const listed = await (await fetch(`${server.url}/v1/agents?limit=1`)).json();
    const after = memoryOf(server.pid);
    console.log(`created ${result['2xx']} agents in ${seconds.toFixed(1)} s (non-2xx: ${result.non2xx}); list answers: ${listed.agents.length === 1}`);
    console.log(`RSS at start: ${idle.rssMb.toFixed(0)} MB`);
    console.log(`RSS after ${agents} agents: ${after.rssMb.toFixed(0)} MB, peak ${after.peakRssMb.toFixed(0)} MB (goal < 300 MB)`);
  } finally {
    await server.stop();
    await store.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
