'use strict';
// Start-up time over a long log: seeds 1,000,000 events (the `ended` mix of lib.js: agents, workflows, runs that
// ended) into a data folder, starts the service once so that its read models and process managers catch up, stops
// it (SIGTERM), then starts it again and times, from spawn, the first 200 of /health/live and of /health/ready.
// Usage: npm run build:bench && node bench/startup.js [events=1000000] [restarts=3] [--cache]
// --cache: keep the seeded log in the temporary folder and reuse it on the next run of the same size.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const {
  temporaryDir,
  positional,
  seedSqliteLog,
  spawnServer,
  answers,
  settled,
  memoryOf,
  cpuSecondsOf,
  loadAverage,
} = require('./lib');

const [events = 1_000_000, restarts = 3] = positional().map(Number);
const cache = process.argv.includes('--cache');
const main = join(__dirname, '..', 'dist', 'main.js');
const GOAL_MS = 2000;

/** Spawns the service and times the first 200 of each probe, polling every 10 ms. */
async function timedStart(env) {
  const started = process.hrtime.bigint();
  const server = await spawnServer(main, env);
  const msSince = () => Number(process.hrtime.bigint() - started) / 1e6;
  const probe = async (path) =>
    (await answers(server, path, { intervalMs: 10, timeoutMs: 600_000 })) ? msSince() : NaN;
  let cpu = NaN;
  const [live, ready] = await Promise.all([
    probe('/health/live').then((ms) => ((cpu = cpuSecondsOf(server.pid)), ms)),
    probe('/health/ready'),
  ]);
  return { server, live, ready, cpu };
}

async function run() {
  const dir = temporaryDir('bench-startup-');
  const env = { DATA_DIR: dir };
  const seeding = Date.now();
  await seedSqliteLog(SqliteEventStore, join(dir, 'events.sqlite'), events, 'ended', cache);
  console.log(`log of ${events} events ready in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

  const first = await timedStart(env);
  await settled(first.server.pid);
  console.log(
    `first start (read models built from the log): live after ${first.live.toFixed(0)} ms, ready after ${first.ready.toFixed(0)} ms; ${loadAverage()}`,
  );
  await first.server.stop();

  for (let i = 1; i <= restarts; i++) {
    const { server, live, ready, cpu } = await timedStart(env);
    const { rssMb } = memoryOf(server.pid);
    await server.stop();
    const verdict = (ms) => (ms < GOAL_MS ? 'met' : 'missed');
    console.log(
      `restart ${i}: /health/live after ${live.toFixed(0)} ms, /health/ready after ${ready.toFixed(0)} ms ` +
        `(goal < ${GOAL_MS} ms: ${verdict(live)}, ${verdict(ready)}); CPU used by then ${cpu.toFixed(2)} s; ` +
        `RSS ${rssMb.toFixed(0)} MB; ${loadAverage()}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
