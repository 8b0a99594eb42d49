'use strict';
// Approval latency: from a person's approval POST to the approved tool's start. One agent whose tool
// `current_time` needs an approval, on `openai-compatible/bench` (a scripted Chat Completions server in this
// process: it calls current_time first, then answers). Each run is queued with `Prefer: wait` (it answers once
// the run waits), approved, and waited for; the figure is the time from sending the approval to the
// `AgentRunToolCalled` event's time, as the service's clock stamped it (same machine), median and p99 (goal:
// median < 50 ms).
// Usage: npm run build:bench && node bench/approval-latency.js [runs=100] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { startServer, temporaryDir, storeArgument, positional, startStore, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [runs = 100] = positional().map(Number);
const storeName = storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function waitFor(url, path, done) {
  for (;;) {
    const body = await (await fetch(`${url}${path}`)).json();
    if (done(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One run: queued until it waits, approved; ms from the approval sent to the tool's start. */
async function approvalToToolStart(url, agentId) {
  const ran = await fetch(`${url}/v1/agents/${agentId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    body: JSON.stringify({ task: 'What time is it?' }),
  });
  const run = await ran.json();
  if (run.status !== 'waiting') throw new Error(`run ${run.id} is ${run.status}, not waiting`);
  const path = `/v1/agents/${agentId}/runs/${run.id}`;
  const sent = Date.now();
  await postJson(url, `${path}/approvals`, {
    decisions: [{ toolCallId: run.pendingApprovals[0].toolCallId, decision: 'approve' }],
  });
  await waitFor(url, path, (body) => body.status === 'succeeded' || body.status === 'failed');
  const { events } = await (await fetch(`${url}${path}/events`)).json();
  const called = events.find((event) => event.type === 'AgentRunToolCalled');
  return Date.parse(called.data.at) - sent;
}

async function main() {
  const model = await startScriptedModel({ toolFirst: 'current_time' });
  const store = await startStore(storeName);
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-approval-latency-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    ...store.env,
  });
  try {
    const agent = await postJson(server.url, '/v1/agents', {
      name: 'bench',
      model: 'openai-compatible/bench',
      tools: ['current_time'],
      approvalRequired: ['current_time'],
    });
    for (let i = 0; i < 5; i++) await approvalToToolStart(server.url, agent.id); // warm-up
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await approvalToToolStart(server.url, agent.id));
    times.sort((a, b) => a - b);
    console.log(`service on ${storeName}, ${runs} approvals; ${loadAverage()}`);
    console.log(
      `  approval POST to tool start: median ${percentile(times, 50)} ms, p99 ${percentile(times, 99)} ms (goal: median < 50 ms)`,
    );
  } finally {
    await server.stop();
    await store.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
