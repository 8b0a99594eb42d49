'use strict';
// Hostile workflows (issue "No request can stall or crash the service", findings 5, 10 and 11a): the longest
// event-loop stall in the service, by a timer probe preloaded into it (bench/stall-probe.js), while each case is
// created, triggered and run to its end against a scripted model that answers at once. Goal: every stall < 50 ms
// (moonshot 20 ms). Each case also prints how its run ended (a hostile rule or task now fails its step).
// Usage: npx tsc -p tsconfig.build.json && node bench/hostile-workflows.js [case names…]
//   cases: some-in, some-in-1000, nested-maps, context-all, big-input, needs-all, task-1mib (default: all)
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { startServer, temporaryDir, postJson, positional, serviceNodeFlags, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (n) => Array.from({ length: n }, (_, i) => i);

/** The longest event-loop stall in the service since the last call (and resets the probe). */
async function stall(server, file) {
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGWINCH');
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    if (!existsSync(file)) continue;
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // Still being written.
    }
  }
  throw new Error('the stall probe did not answer');
}

/**
 * Waits for a run's end by its stream's small ending events (polling the run itself would return its whole input
 * each time, and that answer's cost would be counted), then reads the run once.
 */
async function ended(url, workflowId, runId) {
  const types = 'WorkflowRunSucceeded,WorkflowRunFailed,WorkflowRunCancelled';
  for (const started = Date.now(); Date.now() - started < 300_000; await sleep(50)) {
    const page = await (
      await fetch(`${url}/v1/events?stream=workflowrun-${runId}&types=${types}&order=desc&limit=1`)
    ).json();
    if (page.events.length > 0)
      return async () => (await fetch(`${url}/v1/workflows/${workflowId}/runs/${runId}`)).json();
  }
  throw new Error(`run ${runId} not ended after 300 s`);
}

/** The cases: each a workflow body and the input it is triggered with. */
const CASES = {
  'some-in': () => ({
    what: '`some` over a 20,000-item input, `in` over a 20,000-item literal',
    steps: [
      { agent: 'bench', action: 'x', when: { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(20_000)] }] } },
    ],
    input: { items: range(20_000).map((i) => -i - 1) },
  }),
  'some-in-1000': () => ({
    what: '`some` over a 20,000-item input, `in` over a 1,000-item literal',
    steps: [
      { agent: 'bench', action: 'x', when: { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(990)] }] } },
    ],
    input: { items: range(20_000).map((i) => -i - 1) },
  }),
  'nested-maps': () => ({
    what: 'three nested `map`s over 150-item literals',
    steps: [
      {
        agent: 'bench',
        action: 'x',
        when: { map: [range(150), { map: [range(150), { map: [range(150), { var: '' }] }] }] },
      },
    ],
    input: {},
  }),
  'context-all': () => ({
    what: 'a 500,000-item input, a step with `context: "all"`',
    steps: [{ agent: 'bench', action: 'x', context: 'all' }],
    input: { items: range(500_000).map(() => 0) },
  }),
  'big-input': () => ({
    what: 'a 500,000-item input, a step without context',
    steps: [{ agent: 'bench', action: 'x' }],
    input: { items: range(500_000).map(() => 0) },
  }),
  'needs-all': () => ({
    what: '100 steps, each needing all earlier ones',
    steps: range(100).map((i) => ({
      id: `s${i}`,
      agent: 'bench',
      action: i === 0 ? 'step 0' : `step ${i} after {{steps.s${i - 1}.output}}`,
      needs: range(i).map((j) => `s${j}`),
    })),
    input: {},
  }),
  'task-1mib': () => ({
    what: '`x {{input}}` with a 1 MiB input, then a step reading it',
    steps: [
      { id: 'a', agent: 'bench', action: 'x {{input}}' },
      { id: 'b', agent: 'bench', action: '{{input}} {{input}} {{input}} {{input}} {{input}}', needs: ['a'] },
    ],
    input: { text: 'y'.repeat(1_000_000 - 20) },
  }),
};

async function main() {
  const names = positional().length ? positional() : Object.keys(CASES);
  const dir = temporaryDir('bench-hostile-workflows-');
  const probeFile = join(dir, 'stall.json');
  const model = await startScriptedModel({ delayMs: 0 });
  const server = await startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dir, OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, STALL_PROBE_FILE: probeFile, LOG_LEVEL: 'warn' },
    '/health/ready',
    { nodeArgs: [...serviceNodeFlags(), '-r', join(__dirname, 'stall-probe.js')] },
  );
  try {
    await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' });
    // A plain workflow first, so that what is loaded or compiled on first use is not counted against a case.
    const warm = await postJson(server.url, '/v1/workflows', {
      name: 'warm-up',
      steps: [{ agent: 'bench', action: 'x' }],
    });
    await (
      await ended(server.url, warm.id, (await postJson(server.url, `/v1/workflows/${warm.id}/trigger`, {})).id)
    )();
    console.log(loadAverage());
    for (const name of names) {
      const { what, steps, input } = CASES[name]();
      await sleep(200);
      const idle = await stall(server, probeFile);
      const started = Date.now();
      const response = await fetch(`${server.url}/v1/workflows`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `hostile-${name}`, steps }),
      });
      const created = await response.json();
      const atCreate = await stall(server, probeFile);
      if (!response.ok) {
        console.log(`${name} (${what}): create ${response.status} ${created.errors?.[0]?.message ?? created.title}`);
        console.log(
          `  longest stall at create ${atCreate.maxMs.toFixed(1)} ms (idle before: ${idle.maxMs.toFixed(1)} ms)`,
        );
        continue;
      }
      const run = await postJson(server.url, `/v1/workflows/${created.id}/trigger`, { input });
      const read = await ended(server.url, created.id, run.id);
      const atRun = await stall(server, probeFile);
      const done = await read();
      const error = done.error ? ` (${done.steps.find((s) => s.error)?.error?.code ?? done.error.code})` : '';
      console.log(`${name} (${what}): run ${done.status}${error} after ${Date.now() - started} ms`);
      console.log(
        `  longest stall at create ${atCreate.maxMs.toFixed(1)} ms, while it ran ${atRun.maxMs.toFixed(1)} ms ` +
          `(idle before: ${idle.maxMs.toFixed(1)} ms)`,
      );
    }
  } finally {
    // A graceful stop, so that BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' writes its profile.
    await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
