'use strict';
// Runs that wait for the world. Two figures, on one service:
// 1. Signal latency: `waiting` runs of a workflow whose first step waits for the signal `go` with the run's own key
//    and whose second step asks the model (`openai-compatible/bench`, a scripted Chat Completions server in this
//    process). One at a time, a signal is sent to one of them while the rest go on waiting; the figure is the time
//    from sending `POST /v1/signals` to the second step's model request arriving, median and p99 (goal: p99 < 50 ms
//    with 1,000 runs waiting). The runs signalled are extra, so that 1,000 stay waiting throughout.
// 2. Sleeping runs: RSS and heap after a full GC (bench/gc-probe.js, preloaded in this benchmark only) before and
//    after `sleeping` runs whose first step sleeps for a day (goal: RSS grows < 30 MB with 10,000 sleeping). The
//    baseline is taken after 200 runs were put to sleep, so that code loaded on first use is not counted.
// Usage: npm run build:bench && node bench/waiting-runs.js [waiting=1000] [signals=200] [sleeping=10000]
//        [--store=sqlite|esdb-test-double]
const autocannon = require('autocannon');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const lib = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [waiting = 1000, signals = 200, sleeping = 10_000] = lib.positional().map(Number);
const storeName = lib.storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const getJson = async (url, path) => (await fetch(`${url}${path}`)).json();

/** Triggers `count` runs of a workflow, 10 requests at a time, run `n` with input `{n: first + n}`. */
async function trigger(url, workflowId, count, first = 0) {
  let next = first;
  const result = await autocannon({
    url,
    connections: 10,
    amount: count,
    requests: [
      {
        method: 'POST',
        path: `/v1/workflows/${workflowId}/trigger`,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ input: { n: next++ } }) }),
      },
    ],
  });
  if (result['2xx'] !== count) throw new Error(`${count - result['2xx']} of ${count} triggers were not accepted`);
}

/** Resolves once no run of the workflow is queued or running, with the number that are waiting. */
async function allWaiting(url, workflowId) {
  const runs = `/v1/workflows/${workflowId}/runs`;
  for (;;) {
    const [queued, running] = await Promise.all(
      ['queued', 'running'].map((status) => getJson(url, `${runs}?status=${status}&limit=1`)),
    );
    if (!queued.runs.length && !running.runs.length) break;
    await sleep(200);
  }
  let count = 0;
  let cursor = '';
  do {
    const page = await getJson(url, `${runs}?status=waiting&limit=200${cursor && `&cursor=${cursor}`}`);
    count += page.runs.length;
    cursor = page.nextCursor ?? '';
  } while (cursor);
  return count;
}

/** Sends the signal with key `n` and resolves with the ms until the model's request tagged `bench-run-<n>` came. */
async function signalToModelRequest(url, model, n) {
  const tag = new RegExp(`bench-run-${n}(?!\\d)`);
  const seen = model.log.length;
  const sent = performance.now();
  const answer = await lib.postJson(url, '/v1/signals', { name: 'go', key: String(n) });
  if (answer.delivered.length !== 1) throw new Error(`signal ${n} reached ${answer.delivered.length} runs, not 1`);
  for (;;) {
    const request = model.log.slice(seen).find((entry) => tag.test(JSON.stringify(entry.body.messages)));
    if (request) return request.arrived - sent;
    await sleep(1);
  }
}

async function signalLatency(server, model) {
  const workflow = await lib.postJson(server.url, '/v1/workflows', {
    name: 'waits',
    steps: [
      { id: 'hold', wait: { signal: 'go', key: '{{input.n}}' } },
      { id: 'next', agent: 'bench', action: 'Go on, bench-run-{{input.n}}' },
    ],
  });
  await trigger(server.url, workflow.id, waiting + signals);
  const count = await allWaiting(server.url, workflow.id);
  console.log(`${count} runs waiting for their signal`);
  for (let n = 0; n < 5; n++) await signalToModelRequest(server.url, model, n); // warm-up
  const times = [];
  for (let n = 5; n < signals; n++) times.push(await signalToModelRequest(server.url, model, n));
  times.sort((a, b) => a - b);
  const left = await allWaiting(server.url, workflow.id);
  console.log(
    `  signal sent to the next step's model request (${times.length} signals, ${left} runs still waiting): ` +
      `median ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (goal: p99 < 50 ms)`,
  );
}

async function sleepingMemory(server, probe) {
  const workflow = await lib.postJson(server.url, '/v1/workflows', {
    name: 'sleeps',
    steps: [
      { id: 'nap', sleep: { ms: 86_400_000 } },
      { id: 'next', agent: 'bench', action: 'Wake up, bench-run-{{input.n}}' },
    ],
  });
  const memory = async () => ({ ...(await lib.heapAfterGc(server, probe)), now: lib.memoryOf(server.pid).rssMb });
  await trigger(server.url, workflow.id, 200);
  await allWaiting(server.url, workflow.id);
  await lib.settled(server.pid);
  const before = await memory();
  const started = Date.now();
  await trigger(server.url, workflow.id, sleeping, 200);
  const count = await allWaiting(server.url, workflow.id);
  console.log(`${count} runs asleep, put to sleep in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await lib.settled(server.pid);
  const after = await memory();
  const mb = (value) => `${value.toFixed(1)} MB`;
  console.log(
    `  after a full GC: RSS ${mb(before.rss)} -> ${mb(after.rss)} (grew ${mb(after.rss - before.rss)}; goal < 30 MB), ` +
      `heap used ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}; RSS before the GC ${mb(after.now)}`,
  );
}

async function main() {
  const model = await startScriptedModel({ log: true });
  const store = await lib.startStore(storeName);
  const dir = lib.temporaryDir('bench-waiting-runs-');
  const probe = join(dir, 'gc-probe.json');
  const { nodeArgs, env } = lib.withGcProbe(probe);
  const server = await lib.startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dir, OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, ...store.env, ...env },
    '/health',
    { nodeArgs },
  );
  try {
    await lib.postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' });
    console.log(`service on ${storeName}; ${lib.loadAverage()}`);
    await signalLatency(server, model);
    await sleepingMemory(server, probe);
    console.log(lib.loadAverage());
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
