'use strict';
// Workflow graphs: (1) a workflow of 20 steps that need nothing (all side by side) against a scripted model that
// answers each call after 1 s, with RUN_CONCURRENCY=20: time from the trigger to the run's end by its own
// timestamps (goal < 1.5 s), and the most model calls open at once; (2) a chain of 20 steps run once, then replayed
// from step 19 (the last): model calls the replay made (goal: exactly 1).
// Usage: npm run build:bench && node bench/workflow-graph.js [steps=20] [modelDelayMs=1000] [concurrency=20]
const { join } = require('node:path');
const { startServer, temporaryDir, postJson, positional, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [steps = 20, modelDelayMs = 1000, concurrency = 20] = positional().map(Number);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a run until it has ended. */
async function ended(url, workflowId, runId) {
  for (const started = Date.now(); Date.now() - started < 120_000; await sleep(50)) {
    const run = await (await fetch(`${url}/v1/workflows/${workflowId}/runs/${runId}`)).json();
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
  }
  throw new Error(`run ${runId} not ended after 120 s`);
}

async function main() {
  const model = await startScriptedModel({ delayMs: modelDelayMs });
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-workflow-graph-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(concurrency),
  });
  try {
    const agent = await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' });
    console.log(`${steps} steps, scripted model answers after ${modelDelayMs} ms, RUN_CONCURRENCY=${concurrency}`);

    const wide = Array.from({ length: steps }, (_, i) => ({ agent: 'bench', action: `part ${i}`, needs: [] }));
    const parallel = await postJson(server.url, '/v1/workflows', { name: 'wide', steps: wide });
    model.resetMaxOpen();
    const run = await postJson(server.url, `/v1/workflows/${parallel.id}/trigger`, {});
    const done = await ended(server.url, parallel.id, run.id);
    const seconds = (Date.parse(done.endedAt) - Date.parse(done.createdAt)) / 1000;
    const since = (at) => ((Date.parse(at) - Date.parse(done.createdAt)) / 1000).toFixed(2);
    const times = (key) => done.steps.map((step) => Date.parse(step[key])).sort((a, b) => a - b);
    const [starts, ends] = [times('startedAt'), times('endedAt')];
    console.log(
      `steps started ${since(new Date(starts[0]).toISOString())}–${since(new Date(starts[starts.length - 1]).toISOString())} s, ` +
        `ended ${since(new Date(ends[0]).toISOString())}–${since(new Date(ends[ends.length - 1]).toISOString())} s after the trigger`,
    );
    const agentRuns = (await (await fetch(`${server.url}/v1/agents/${agent.id}/runs?limit=100`)).json()).runs;
    const range = (key) => {
      const at = agentRuns.map((r) => Date.parse(r[key]) - Date.parse(done.createdAt)).sort((x, y) => x - y);
      return `${(at[0] / 1000).toFixed(2)}–${(at[at.length - 1] / 1000).toFixed(2)} s`;
    };
    console.log(
      `their agent runs queued ${range('createdAt')}, claimed ${range('startedAt')}, ended ${range('endedAt')}`,
    );
    console.log(
      `${steps} independent steps: ${done.status} in ${seconds.toFixed(2)} s from trigger to end (goal < 1.5 s), ` +
        `${model.maxOpen} model calls open at once at most`,
    );

    const chain = Array.from({ length: steps }, (_, i) => ({ agent: 'bench', action: `link ${i}` }));
    const chained = await postJson(server.url, '/v1/workflows', { name: 'chain', steps: chain });
    const first = await postJson(server.url, `/v1/workflows/${chained.id}/trigger`, {});
    const original = await ended(server.url, chained.id, first.id);
    const before = model.requests;
    const last = String(steps - 1);
    const replay = await postJson(server.url, `/v1/workflows/${chained.id}/runs/${original.id}/replay`, {
      fromStep: last,
    });
    const replayed = await ended(server.url, chained.id, replay.id);
    const reused = replayed.steps.filter((step) => step.reused).length;
    console.log(
      `chain of ${steps} (${original.status}, ${((Date.parse(original.endedAt) - Date.parse(original.createdAt)) / 1000).toFixed(1)} s), ` +
        `replayed from step ${last}: ${replayed.status}, ${model.requests - before} model call(s) (goal: exactly 1), ${reused} steps reused`,
    );
    console.log(loadAverage());
  } finally {
    await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
