'use strict';
// Run latency, builds side by side: each build of the service runs (POST …/run with `Prefer: wait=30`, one agent on
// a scripted model that answers at once) one after the other, run for run, so that a shared machine's changing load
// falls on all of them alike. Prints each build's median latency and overhead (latency minus the model's time), and
// the median of the run-for-run differences from the first build; and each build's CPU per run over the same
// stretch of time (main thread and all threads, from /proc, as bench/run-cpu.js reads it). Each build first makes
// 30 runs (the AI SDK is loaded with the first).
// Usage: npm run build:bench && node bench/run-latency-ab.js [runs=300] main.js main.js [...]
//   e.g. node bench/run-latency-ab.js 300 .bench-before/dist/main.js dist/main.js
const { loadavg } = require('node:os');
const { threadCpuMs, startRunBuilds, timedRun, positional } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runsArgument = '300', ...mains] = positional();
const runs = Number(runsArgument);
if (mains.length < 2) throw new Error('name at least two builds (main.js files)');

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main() {
  const model = await startScriptedModel();
  const servers = [];
  try {
    await startRunBuilds(mains, model, 'bench-run-latency-ab-', servers);
    const builds = servers.map((server, k) => ({ script: mains[k], server, latency: [], overhead: [] }));
    const load = loadavg()[0];
    for (const build of builds) build.cpuBefore = threadCpuMs(build.server.pid);
    for (let i = 0; i < runs; i++) {
      // Who goes first turns too.
      for (let j = 0; j < builds.length; j++) {
        const build = builds[(i + j) % builds.length];
        const { latency, overhead } = await timedRun(build.server.url, build.server.path, model);
        build.latency.push(latency);
        build.overhead.push(overhead);
      }
    }
    for (const build of builds) build.cpuAfter = threadCpuMs(build.server.pid);
    console.log(`${runs} sequential runs per build, run for run; load ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}`);
    const [first] = builds;
    const perRun = (build, thread) => ((build.cpuAfter[thread] - build.cpuBefore[thread]) / runs).toFixed(2);
    for (const build of builds) {
      const difference = build.latency.map((ms, i) => ms - first.latency[i]);
      console.log(
        `${build.script}: latency median ${median(build.latency).toFixed(2)} ms, overhead median ` +
          `${median(build.overhead).toFixed(2)} ms; run for run minus ${first.script}: median ` +
          `${median(difference).toFixed(2)} ms; CPU per run ${perRun(build, 'main')} ms on the main thread, ` +
          `${perRun(build, 'all')} ms in all threads`,
      );
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
