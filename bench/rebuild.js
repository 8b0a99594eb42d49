'use strict';
// Rebuild speed: how fast the projections rebuild the read models from 100,000 events of a realistic mix.
// Usage: npm run build:bench && node bench/rebuild.js [events=100000] [--store=sqlite|esdb-test-double] [--mix=queued|ended] [--cache]
// --mix=queued (default: agents, workflows, runs queued) or --mix=ended (runs with their whole lifecycle; see lib.js).
// --cache: keep the seeded SQLite log in the temporary folder and reuse it on the next run of the same size.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const { EventStoreDbEventStore } = require('../dist/event-store/eventstoredb/eventstoredb-event-store');
const { ProjectionRunner } = require('../dist/read-models/projection-runner');
const { AppliedEvents } = require('../dist/read-models/applied-events');
const { SqliteCheckpointStore } = require('../dist/read-models/sqlite-checkpoint-store');
const { openReadDatabase } = require('../dist/read-models/read-database');
const { AgentsReadModel } = require('../dist/agents/queries/agents.read-model');
const { AgentsProjection } = require('../dist/agents/queries/agents.projection');
const { WorkflowsReadModel } = require('../dist/workflows/queries/workflows.read-model');
const { WorkflowsProjection } = require('../dist/workflows/queries/workflows.projection');
const { temporaryDir, storeArgument, positional, startStore, seedLog, seedSqliteLog, loadAverage } = require('./lib');

const [total = 100_000] = positional().map(Number);
const storeName = storeArgument();
const cache = process.argv.includes('--cache');
const mix = (process.argv.find((arg) => arg.startsWith('--mix=')) ?? '--mix=queued').slice('--mix='.length);

async function main() {
  const dir = temporaryDir('bench-rebuild-');
  const server = await startStore(storeName);
  let store;
  if (server.url) {
    store = new EventStoreDbEventStore({ url: server.url, deadlineMs: 60_000 });
    await seedLog(store, total, mix);
  } else {
    await seedSqliteLog(SqliteEventStore, join(dir, 'events.sqlite'), total, mix, cache);
    store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
  }
  let count = 0;

  const scanStarted = process.hrtime.bigint();
  for (let after = 0n; ;) {
    const page = await store.readAll({ after, maxCount: 1000 });
    if (page.length === 0) break;
    count += page.length;
    after = page[page.length - 1].position;
  }
  const scanSeconds = Number(process.hrtime.bigint() - scanStarted) / 1e9;

  const db = openReadDatabase(join(dir, 'read-models.sqlite'));
  const runner = new ProjectionRunner(store, new SqliteCheckpointStore(db), db, new AppliedEvents());
  runner.register(new AgentsProjection(new AgentsReadModel(db), runner));
  runner.register(new WorkflowsProjection(new WorkflowsReadModel(db), runner));
  const started = process.hrtime.bigint();
  await runner.start();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rows = db
    .prepare(
      'SELECT (SELECT count(*) FROM agents) + (SELECT count(*) FROM workflows) + (SELECT count(*) FROM workflow_runs) + (SELECT count(*) FROM agent_runs) AS n',
    )
    .get().n;

  console.log(`store: ${storeName}; mix: ${mix}; events: ${count}, read-model rows: ${rows}`);
  console.log(`scan only (read + decode, no projection): ${Math.round(count / scanSeconds)} events/s`);
  console.log(
    `rebuild: ${Math.round(count / seconds)} events/s in ${seconds.toFixed(2)} s (goal >= 200000 events/s, from 1,000,000 events)`,
  );
  console.log(loadAverage());
  await runner.stop();
  await store.close();
  db.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
