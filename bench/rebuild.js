'use strict';
// Rebuild speed: how fast the projections rebuild the read models from 100,000 events of a realistic mix.
// Usage: npm run build:bench && node bench/rebuild.js [events=100000, the goal is measured at 1000000] [--store=sqlite|esdb-test-double]
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite-event-store');
const { EventStoreDbEventStore } = require('../dist/event-store/eventstoredb-event-store');
const { ProjectionRunner } = require('../dist/read-models/projection-runner');
const { openReadDatabase } = require('../dist/read-models/read-database');
const { AgentsReadModel } = require('../dist/agents/queries/agents.read-model');
const { AgentsProjection } = require('../dist/agents/queries/agents.projection');
const { WorkflowsReadModel } = require('../dist/workflows/queries/workflows.read-model');
const { WorkflowsProjection } = require('../dist/workflows/queries/workflows.projection');
const { temporaryDir, storeArgument, positional, startStore } = require('./lib');

const [total = 100_000] = positional().map(Number);
const storeName = storeArgument();
const at = new Date('2026-01-01T00:00:00.000Z').toISOString();
const event = (type, data) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });

/** Per 20 events: 5 agents (claim + create), 1 workflow, 3 triggers (trigger + run), 3 agent runs. */
function* history(count) {
  for (let i = 0; i * 20 < count; i++) {
    const wf = `wf_${String(i).padStart(26, '0')}`;
    yield [`workflow-${wf}`, [event('WorkflowCreated', { id: wf, name: `wf ${i}`, trigger: { type: 'manual' }, steps: [{ agent: `a${i}-0`, action: 'go' }], createdAt: at })]];
    for (let a = 0; a < 5; a++) {
      const id = `agent_${String(i * 5 + a).padStart(26, '0')}`;
      const name = `a${i}-${a}`;
      yield [`agentname-${name}`, [event('AgentNameClaimed', { name, agentId: id, claimedAt: at })]];
      yield [`agent-${id}`, [event('AgentCreated', { id, name, model: 'openai/gpt-4o-mini', instructions: 'Be brief.', tools: ['web_search'], createdAt: at })]];
    }
    for (let r = 0; r < 3; r++) {
      const runId = `wfrun_${String(i * 3 + r).padStart(26, '0')}`;
      yield [`workflow-${wf}`, [event('WorkflowTriggered', { workflowId: wf, runId, input: { r }, trigger: { type: 'manual' }, triggeredAt: at })]];
      yield [`workflowrun-${runId}`, [event('WorkflowRunQueued', { id: runId, workflowId: wf, input: { r }, trigger: { type: 'manual' }, createdAt: at })]];
      const agentRunId = `agentrun_${String(i * 3 + r).padStart(26, '0')}`;
      yield [`agentrun-${agentRunId}`, [event('AgentRunQueued', { id: agentRunId, agentId: `agent_${String(i * 5).padStart(26, '0')}`, task: 'Summarise', context: { r }, createdAt: at })]];
    }
  }
}

async function main() {
  const dir = temporaryDir('bench-rebuild-');
  const server = await startStore(storeName);
  const store = server.url
    ? new EventStoreDbEventStore({ url: server.url, deadlineMs: 60_000 })
    : new SqliteEventStore({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
  let pending = [];
  for (const [stream, events] of history(total)) {
    pending.push(store.append(stream, events, { expected: 'any' }));
    if (pending.length === 1000) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  let count = 0;

  const scanStarted = process.hrtime.bigint();
  for (let after = 0n; ; ) {
    const page = await store.readAll({ after, maxCount: 1000 });
    if (page.length === 0) break;
    count += page.length;
    after = page[page.length - 1].position;
  }
  const scanSeconds = Number(process.hrtime.bigint() - scanStarted) / 1e9;

  const db = openReadDatabase(join(dir, 'read-models.sqlite'));
  const runner = new ProjectionRunner(store, db, { readYourWritesTimeoutMs: 5000 });
  runner.register(new AgentsProjection(new AgentsReadModel(db), runner));
  runner.register(new WorkflowsProjection(new WorkflowsReadModel(db), runner));
  const started = process.hrtime.bigint();
  await runner.start();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rows = db.prepare('SELECT (SELECT count(*) FROM agents) + (SELECT count(*) FROM workflows) + (SELECT count(*) FROM workflow_runs) + (SELECT count(*) FROM agent_runs) AS n').get().n;

  console.log(`store: ${storeName}; events: ${count}, read-model rows: ${rows}`);
  console.log(`scan only (read + decode, no projection): ${Math.round(count / scanSeconds)} events/s`);
  console.log(`rebuild: ${Math.round(count / seconds)} events/s in ${seconds.toFixed(2)} s (goal >= 200000 events/s, from 1,000,000 events: node bench/rebuild.js 1000000)`);
  await runner.stop();
  await store.close();
  db.close();
  await server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
