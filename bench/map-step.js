'use strict';
// A map step against the ideal makespan: one workflow run whose only step runs its agent once per item of a list
// of `items`, `concurrency` at once, on a scripted Chat Completions server in this process whose every answer comes
// after `modelDelayMs` (bench/scripted-model.js). The service runs on the embedded SQLite store with RUN_CONCURRENCY
// equal to the map's concurrency. The ideal is ceil(items / concurrency) x modelDelayMs (each wave of model calls
// with nothing between them); the figure is ideal / actual, the actual being the run's time from its trigger to its
// end as the service recorded them (goal >= 0.9). Also reported: the most model requests open at once (at most
// `concurrency`), and that the outputs came back in the order of the list.
// Usage: npm run build:bench && node bench/map-step.js [items=500] [concurrency=50] [modelDelayMs=1000] [rounds=1]
const { join } = require('node:path');
const { startServer, temporaryDir, positional, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [items = 500, concurrency = 50, modelDelayMs = 1000, rounds = 1] = positional().map(Number);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function runOnce(url, workflowId, model) {
  model.resetMaxOpen();
  const list = Array.from({ length: items }, (_, i) => `bench-run-${i}`);
  const run = await postJson(url, `/v1/workflows/${workflowId}/trigger`, { input: { list } });
  for (;;) {
    const now = await (await fetch(`${url}/v1/workflows/${workflowId}/runs/${run.id}`)).json();
    if (now.status === 'succeeded' || now.status === 'failed' || now.status === 'cancelled') {
      if (now.status !== 'succeeded') throw new Error(`The run ${now.status}: ${JSON.stringify(now.error)}`);
      const { outputObject: outputs, items: ran } = now.steps[0];
      const inOrder = outputs.length === items && ran.every((item, i) => item.task === `Answer bench-run-${i}`);
      return { ms: Date.parse(now.endedAt) - Date.parse(now.createdAt), inOrder, maxOpen: model.maxOpen };
    }
    await sleep(100);
  }
}

async function main() {
  const model = await startScriptedModel({ delayMs: modelDelayMs });
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-map-step-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(concurrency),
  });
  try {
    await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' });
    const workflow = await postJson(server.url, '/v1/workflows', {
      name: 'map bench',
      steps: [{ id: 'each', agent: 'bench', action: 'Answer {{item}}', map: { over: 'input.list', concurrency } }],
    });
    const ideal = Math.ceil(items / concurrency) * modelDelayMs;
    console.log(
      `a map of ${items} items, ${concurrency} at once, every model call ${modelDelayMs} ms; ${loadAverage()}`,
    );
    for (let round = 1; round <= rounds; round++) {
      const { ms, inOrder, maxOpen } = await runOnce(server.url, workflow.id, model);
      console.log(
        `  round ${round}: ideal ${(ideal / 1000).toFixed(1)} s / actual ${(ms / 1000).toFixed(3)} s = ${(ideal / ms).toFixed(3)} ` +
          `(goal >= 0.9: ${ideal / ms >= 0.9 ? 'met' : 'MISSED'}); most model requests open at once ${maxOpen} ` +
          `(goal <= ${concurrency}); ${items} outputs in order: ${inOrder}`,
      );
    }
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
