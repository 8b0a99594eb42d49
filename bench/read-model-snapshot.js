'use strict';
// A new instance over a long log, with and without a read-model snapshot (issue 40, section 5). Seeds a SQLite log
// of `events - behind` events (the `ended` mix of lib.js), starts the service with READ_MODEL_SNAPSHOT_DIR so that
// it builds its read models from the log and, at shutdown, writes a snapshot; appends `behind` more events; then,
// in the same run, times from spawn to the first 200 of /health/ready:
//   - with the snapshot: an instance without read-models.sqlite restores it and catches up `behind` events;
//   - without it (the baseline): the same instance builds every read model from the whole log.
// The SQLite store stands in for EventStoreDB here (a log of 10⁷ events does not fit the test double); the
// restore and the catch-up are the same code on either store.
// Usage: npm run build:bench && node bench/read-model-snapshot.js [events=10000000] [behind=10000] [--cache]
// --cache: keep the seeded log in the temporary folder and reuse it on the next run of the same size.
const { readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const { temporaryDir, positional, seedLog, seedSqliteLog, spawnServer, answers, loadAverage } = require('./lib');

const [events = 10_000_000, behind = 10_000] = positional().map(Number);
const cache = process.argv.includes('--cache');
const main = join(__dirname, '..', 'dist', 'main.js');
const GOAL_MS = 10_000;

/** Spawns the service and times the first 200 of /health/ready, polling every 10 ms. */
async function timedReady(env) {
  const started = process.hrtime.bigint();
  const server = await spawnServer(main, env);
  if (!(await answers(server, '/health/ready', { intervalMs: 10, timeoutMs: 3_600_000 }))) {
    throw new Error(`the service did not become ready (exit: ${server.exited})`);
  }
  return { server, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** Stops the service (SIGTERM: it writes its snapshot at shutdown), in ms. */
async function timedStop(server) {
  const started = performance.now();
  await server.stop();
  return performance.now() - started;
}

function withoutReadModels(dir) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `read-models.sqlite${suffix}`), { force: true });
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const megabytes = (file) => `${(statSync(file).size / 1024 / 1024).toFixed(0)} MB`;

async function run() {
  const dir = temporaryDir('bench-snapshot-data-');
  const snapshots = temporaryDir('bench-snapshot-folder-');
  const log = join(dir, 'events.sqlite');
  const seeding = Date.now();
  await seedSqliteLog(SqliteEventStore, log, events - behind, 'ended', cache);
  console.log(`log of ${events - behind} events ready in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

  const env = { DATA_DIR: dir, READ_MODEL_SNAPSHOT_DIR: snapshots, READ_MODEL_SNAPSHOT_EVERY: '0' };
  const first = await timedReady(env);
  const stopMs = await timedStop(first.server);
  const [snapshot] = readdirSync(snapshots).filter((name) => name.endsWith('.sqlite'));
  if (!snapshot) throw new Error('no snapshot was written at shutdown');
  console.log(
    `built from ${events - behind} events in ${seconds(first.ms)}; at shutdown wrote ${snapshot} ` +
      `(${megabytes(join(snapshots, snapshot))}), stopped in ${seconds(stopMs)}`,
  );

  const store = new SqliteEventStore({ file: log, synchronous: 'NORMAL' });
  await seedLog(store, events, 'ended', events - behind);
  await store.close();
  console.log(`appended ${behind} events after the snapshot: the log holds ${events}; ${loadAverage()}`);

  withoutReadModels(dir);
  const restored = await timedReady(env);
  await restored.server.kill();
  await new Promise((resolve) => setTimeout(resolve, 500));

  withoutReadModels(dir);
  const rebuilt = await timedReady({ DATA_DIR: dir });
  await rebuilt.server.stop();

  const verdict = restored.ms < GOAL_MS ? 'met' : 'missed';
  console.log(`new instance over ${events} events, snapshot ${behind} events old: ready in ${seconds(restored.ms)}`);
  console.log(`the same without a snapshot (whole log): ready in ${seconds(rebuilt.ms)}`);
  console.log(
    `ratio ${(rebuilt.ms / restored.ms).toFixed(1)}x; goal < ${GOAL_MS / 1000} s: ${verdict}; ${loadAverage()}`,
  );
  rmSync(dir, { recursive: true, force: true });
  rmSync(snapshots, { recursive: true, force: true });
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
