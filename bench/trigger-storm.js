'use strict';
// Memory under a trigger storm: 50,000 POST /v1/workflows/{id}/trigger on one workflow of one step. Each run's step
// queues an agent run whose model has no key, so it fails at once: every trigger goes the whole way (about ten
// events). Prints RSS before, right after the requests, and once the runs have all ended, with the heap after a
// full GC each time (bench/gc-probe.js, preloaded in this benchmark only). The service runs with `npm start`'s flags.
// Usage: npm run build:bench && node bench/trigger-storm.js [triggers=50000]
const autocannon = require('autocannon');
const { join } = require('node:path');
const lib = require('./lib');

const [triggers = 50_000] = lib.positional().map(Number);

async function main() {
  const dir = lib.temporaryDir('bench-storm-');
  const probe = join(dir, 'gc-probe.json');
  const { nodeArgs, env } = lib.withGcProbe(probe);
  const server = await lib.startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dir, OPENAI_API_KEY: '', ...env },
    '/health',
    { nodeArgs },
  );
  const report = async (when) => {
    const heap = await lib.heapAfterGc(server, probe);
    const { rssMb } = lib.memoryOf(server.pid);
    console.log(
      `${when}: RSS ${rssMb.toFixed(0)} MB; after a full GC heap used ${heap.heapUsed.toFixed(1)} MB of ` +
        `${heap.heapTotal.toFixed(1)} MB, RSS ${heap.rss.toFixed(0)} MB; ${lib.loadAverage()}`,
    );
  };
  try {
    await lib.postJson(server.url, '/v1/agents', { name: 'storm', model: 'openai/gpt-4o-mini' });
    const workflow = await lib.postJson(server.url, '/v1/workflows', {
      name: 'storm',
      steps: [{ agent: 'storm', action: 'Summarise {{input.n}}' }],
    });
    console.log(`node flags: ${lib.serviceNodeFlags().join(' ') || '(none)'}`);
    await report('before');
    const started = Date.now();
    const result = await autocannon({
      url: server.url,
      connections: 10,
      amount: triggers,
      requests: [
        {
          method: 'POST',
          path: `/v1/workflows/${workflow.id}/trigger`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ input: { n: 1 } }),
        },
      ],
    });
    const seconds = (Date.now() - started) / 1000;
    const after = lib.memoryOf(server.pid);
    console.log(
      `${result['2xx']} triggers answered in ${seconds.toFixed(1)} s (non-2xx: ${result.non2xx}); ` +
        `RSS right after: ${after.rssMb.toFixed(0)} MB, peak ${after.peakRssMb.toFixed(0)} MB`,
    );
    await report('right after the requests');
    await lib.settled(server.pid);
    const runs = await (await fetch(`${server.url}/v1/workflows/${workflow.id}/runs?status=failed&limit=1`)).json();
    console.log(
      `runs done in ${((Date.now() - started) / 1000).toFixed(0)} s; a failed run listed: ${runs.runs?.length === 1}`,
    );
    await report('once every run ended');
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
