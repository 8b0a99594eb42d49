'use strict';
// Long streams: the first POST /v1/workflows/{id}/trigger after a restart, for a workflow triggered 100,000 times,
// with snapshots (SNAPSHOT_EVERY=1000, the default) and without (SNAPSHOT_EVERY=0, a replay from revision 0).
// The history is appended straight through the store classes in dist (each trigger with its run's stream, as the
// service writes them; on the test double, written into it at its start); the snapshot is then made by the service
// itself, on a trigger, as it would be in use. Runs are not executed (RUN_EXECUTOR_ENABLED=false).
// Usage: npm run build:bench && node bench/long-stream.js [triggers=100000] [rounds=3] [--store=sqlite|esdb-test-double]
const { randomUUID } = require('node:crypto');
const { loadavg } = require('node:os');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const { EventStoreDbEventStore } = require('../dist/event-store/eventstoredb/eventstoredb-event-store');
const { startServer, temporaryDir, storeArgument, positional, startStore } = require('./lib');

const [triggers = 100_000, rounds = 3] = positional().map(Number);
const storeName = storeArgument();
const SNAPSHOT_EVERY = 1000;
const GOAL_MS = 50;
const workflowId = `wf_01JBENCH${'0'.repeat(18)}`;
const stream = `workflow-${workflowId}`;
/** A workflow created and never triggered: its first trigger after a restart is the floor for the long one's. */
const shortId = `wf_01JBENCH1${'0'.repeat(17)}`;
const at = '2026-01-01T00:00:00.000Z';
const event = (type, data) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });
const load = () => `load ${loadavg()[0].toFixed(2)}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A workflow's creation, for the start of its stream. */
function creation(id) {
  const created = { id, name: id, trigger: { type: 'manual' }, steps: [{ agent: 'a', action: 'go' }] };
  return [`workflow-${id}`, [event('WorkflowCreated', { ...created, createdAt: at })]];
}

/** `count` triggers from number `first` on, 1000 at a time: WorkflowTriggered, then WorkflowRunQueued opening each run. */
function* triggerHistory(first, count) {
  for (let start = first; start < first + count; start += 1000) {
    const runs = Array.from({ length: Math.min(1000, first + count - start) }, (_, i) => {
      const id = `wfrun_01JR${String(start + i).padStart(22, '0')}`;
      return { id, workflowId, input: { n: start + i }, trigger: { type: 'manual' } };
    });
    yield [
      [
        stream,
        runs.map(({ id, ...run }) =>
          event('WorkflowTriggered', { ...run, runId: id, workflowVersion: 1, triggeredAt: at }),
        ),
      ],
      ...runs.map((run) => [
        `workflowrun-${run.id}`,
        [event('WorkflowRunQueued', { ...run, workflowVersion: 1, createdAt: at })],
      ]),
    ];
  }
}

/** Appends through a store: the workflow's part first, then the runs' streams together. */
async function appendTriggers(store, first, count) {
  for (const [[workflow, triggered], ...runs] of triggerHistory(first, count)) {
    await store.append(workflow, triggered, { expected: 'any' });
    await Promise.all(runs.map(([run, queued]) => store.append(run, queued, { expected: 'no_stream' })));
  }
}

/**
 * The test double answers over gRPC far slower than a server: 100,000 appends would take minutes. Its history is
 * a file it writes into itself when it starts (see test-double-server.js).
 */
function seedFile(dir) {
  const file = join(dir, 'seed.jsonl');
  const lines = [creation(workflowId), creation(shortId), ...[...triggerHistory(0, triggers)].flat()].flatMap(
    ([s, events]) => events.map(({ type, data }) => JSON.stringify([s, type, data])),
  );
  writeFileSync(file, lines.join('\n'));
  return file;
}

async function withStore(dir, storeServer, work) {
  const store = storeServer.url
    ? new EventStoreDbEventStore({ url: storeServer.url, deadlineMs: 60_000 })
    : new SqliteEventStore({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/**
 * Starts the service, times its first trigger of the workflow and, for comparison, a second one (the actor then
 * holds the state), and stops it (which waits for a snapshot being written).
 */
async function triggerTimes(dir, storeServer, snapshotEvery, id = workflowId) {
  const env = {
    ...storeServer.env,
    DATA_DIR: dir,
    RUN_EXECUTOR_ENABLED: 'false',
    SNAPSHOT_EVERY: String(snapshotEvery),
  };
  // The first start projects the whole history, which takes a while on the test double.
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), env, '/health', { timeoutMs: 600_000 });
  const trigger = async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/workflows/${id}/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: {} }),
    });
    const ms = performance.now() - started;
    if (response.status !== 202) throw new Error(`trigger answered ${response.status}: ${await response.text()}`);
    return ms;
  };
  try {
    return { first: await trigger(), second: await trigger() };
  } finally {
    await server.stop();
  }
}

async function main() {
  const dir = temporaryDir('bench-long-stream-');
  const seeded = performance.now();
  const storeServer = await startStore(storeName, storeName === 'sqlite' ? {} : { SEED_FILE: seedFile(dir) });
  if (storeName === 'sqlite') {
    await withStore(dir, storeServer, async (store) => {
      for (const [workflow, created] of [creation(workflowId), creation(shortId)])
        await store.append(workflow, created, { expected: 'no_stream' });
      await appendTriggers(store, 0, triggers);
    });
  }
  console.log(
    `store: ${storeName}; seeded ${triggers} triggers in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  // The service replays the stream, appends, and writes the snapshot (the first start also projects the history).
  const cold = await triggerTimes(dir, storeServer, SNAPSHOT_EVERY);
  console.log(`first trigger with no snapshot yet (it writes one): ${cold.first.toFixed(1)} ms (${load()})`);

  const on = [];
  const off = [];
  const short = [];
  const second = [];
  for (let round = 1; round <= rounds; round++) {
    const withSnapshots = await triggerTimes(dir, storeServer, SNAPSHOT_EVERY);
    const without = await triggerTimes(dir, storeServer, 0);
    const floor = await triggerTimes(dir, storeServer, SNAPSHOT_EVERY, shortId);
    on.push(withSnapshots.first);
    off.push(without.first);
    short.push(floor.first);
    second.push(withSnapshots.second, without.second);
    console.log(
      `round ${round}: first trigger with snapshots ${withSnapshots.first.toFixed(1)} ms, without ` +
        `${without.first.toFixed(1)} ms, of a new workflow ${floor.first.toFixed(1)} ms; second trigger ` +
        `${withSnapshots.second.toFixed(1)} / ${without.second.toFixed(1)} ms (${load()})`,
    );
  }
  // The worst case for SNAPSHOT_EVERY: the stream's head SNAPSHOT_EVERY - 1 events past the snapshot.
  await withStore(dir, storeServer, async (store) => {
    const head = BigInt(triggers + 2 + 4 * rounds); // WorkflowCreated at 0, then the triggers, then two per start
    if ((await store.readStream(stream, { fromRevision: head })).events.length !== 1) throw new Error('lost count');
    const { revision } = await store.readSnapshot(stream);
    await appendTriggers(store, triggers, Number(revision) + SNAPSHOT_EVERY - 1 - Number(head));
  });
  const worst = (await triggerTimes(dir, storeServer, SNAPSHOT_EVERY)).first;

  const [medianOn, medianOff] = [median(on), median(off)];
  console.log(`\nfirst trigger after a restart, ${triggers} triggers, median of ${rounds} (${load()}):`);
  console.log(`  snapshots on (SNAPSHOT_EVERY=${SNAPSHOT_EVERY}): ${medianOn.toFixed(1)} ms (goal < ${GOAL_MS} ms)`);
  console.log(`  snapshots on, the snapshot ${SNAPSHOT_EVERY - 1} events behind (worst case): ${worst.toFixed(1)} ms`);
  console.log(`  snapshots off (SNAPSHOT_EVERY=0, replay): ${medianOff.toFixed(1)} ms`);
  console.log(`  for comparison, the first trigger of a workflow with no history: ${median(short).toFixed(1)} ms`);
  console.log(`  and a second trigger (state in memory): ${median(second).toFixed(1)} ms`);
  console.log(`  off / on: ${(medianOff / medianOn).toFixed(1)}x`);
  await storeServer.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
