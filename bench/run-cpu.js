'use strict';
// CPU per agent run: builds of the service taking turns, each doing `runs` sequential runs (POST …/run with
// `Prefer: wait=30`, one agent on a scripted model that answers at once), read from /proc as the CPU time of the
// service's main thread and of the whole process (its worker threads too) over those runs, per run. Steadier than
// wall time on a shared machine. Each build first makes 30 runs (the AI SDK is loaded with the first).
// Usage: npm run build:bench && node bench/run-cpu.js [runs=200] [rounds=3] [main.js ...]
//   e.g. node bench/run-cpu.js 200 3 .bench-before/dist/main.js dist/main.js
const { loadavg } = require('node:os');
const { join } = require('node:path');
const { threadCpuMs, startRunBuilds, timedRun, positional } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runsArgument = '200', roundsArgument = '3', ...mains] = positional();
const [runs, rounds] = [Number(runsArgument), Number(roundsArgument)];
if (mains.length === 0) mains.push(join(__dirname, '..', 'dist', 'main.js'));

async function main() {
  const model = await startScriptedModel();
  const servers = [];
  try {
    await startRunBuilds(mains, model, 'bench-run-cpu-', servers);
    console.log(
      `${runs} sequential runs per round, ${rounds} rounds, builds taking turns; load ${loadavg()[0].toFixed(2)}`,
    );
    for (let round = 1; round <= rounds; round++) {
      for (const [k, server] of servers.entries()) {
        const before = threadCpuMs(server.pid);
        const latencies = [];
        for (let i = 0; i < runs; i++) latencies.push((await timedRun(server.url, server.path, model)).latency);
        const after = threadCpuMs(server.pid);
        latencies.sort((a, b) => a - b);
        const perRun = (ms) => (ms / runs).toFixed(2);
        console.log(
          `round ${round} ${mains[k]}: CPU per run ${perRun(after.main - before.main)} ms on the main thread, ` +
            `${perRun(after.all - before.all)} ms in all threads; latency median ` +
            `${latencies[latencies.length >> 1].toFixed(2)} ms (load ${loadavg()[0].toFixed(2)})`,
        );
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
