'use strict';
// CPU per agent run: builds of the service taking turns, each doing `runs` sequential runs (POST …/run with
// `Prefer: wait=30`, one agent on a scripted model that answers at once), read from /proc as the CPU time of the
// service's main thread and of the whole process (its worker threads too) over those runs, per run. Steadier than
// wall time on a shared machine. Each build first makes 30 runs (the AI SDK is loaded with the first).
// Usage: npm run build:bench && node bench/run-cpu.js [runs=200] [rounds=3] [main.js ...]
//   e.g. node bench/run-cpu.js 200 3 .bench-before/dist/main.js dist/main.js
const { readFileSync } = require('node:fs');
const { loadavg } = require('node:os');
const { join } = require('node:path');
const { startServer, temporaryDir, timedRun, positional } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runsArgument = '200', roundsArgument = '3', ...mains] = positional();
const [runs, rounds] = [Number(runsArgument), Number(roundsArgument)];
if (mains.length === 0) mains.push(join(__dirname, '..', 'dist', 'main.js'));

/** CPU ms of /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat (user + system, in clock ticks of 10 ms). */
function cpuMs(path) {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const model = await startScriptedModel();
  const builds = [];
  try {
    for (const script of mains) {
      const server = await startServer(script, {
        DATA_DIR: temporaryDir('bench-run-cpu-'),
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        RUN_CONCURRENCY: '10',
      });
      builds.push({ script, server });
      const created = await fetch(`${server.url}/v1/agents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', model: 'openai-compatible/bench', instructions: 'Answer briefly.' }),
      });
      if (created.status !== 201) throw new Error(`agent not created: HTTP ${created.status}`);
      server.path = `/v1/agents/${(await created.json()).id}/run`;
      for (let i = 0; i < 30; i++) await timedRun(server.url, server.path, model);
    }
    console.log(`${runs} sequential runs per round, ${rounds} rounds, builds taking turns; load ${loadavg()[0].toFixed(2)}`);
    for (let round = 1; round <= rounds; round++) {
      for (const { script, server } of builds) {
        const mainThread = `/proc/${server.pid}/task/${server.pid}/stat`;
        const process = `/proc/${server.pid}/stat`;
        const [mainBefore, allBefore] = [cpuMs(mainThread), cpuMs(process)];
        const latencies = [];
        for (let i = 0; i < runs; i++) latencies.push((await timedRun(server.url, server.path, model)).latency);
        latencies.sort((a, b) => a - b);
        const perRun = (ms) => (ms / runs).toFixed(2);
        console.log(
          `round ${round} ${script}: CPU per run ${perRun(cpuMs(mainThread) - mainBefore)} ms on the main thread, ` +
            `${perRun(cpuMs(process) - allBefore)} ms in all threads; latency median ` +
            `${latencies[latencies.length >> 1].toFixed(2)} ms (load ${loadavg()[0].toFixed(2)})`,
        );
      }
    }
  } finally {
    for (const { server } of builds) await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
