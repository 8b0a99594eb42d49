'use strict';
// Runs in flight: 500 agent runs started as fast as possible (POST /v1/agents/{id}/run without Prefer, through
// autocannon) against a scripted Chat Completions server in this process that waits 1 s, then streams its answer.
// With RUN_CONCURRENCY=100 they should all have ended after about 5 s. Counts the runs by status through
// GET /v1/agents/{id}/runs?status=… (limit 200, paging by cursor) every 250 ms until none is queued or running;
// reports the time from the first POST to the last run ended, runs that did not succeed, the most model requests
// open at once (at most RUN_CONCURRENCY), and the service's resident memory before, during (max) and after: when
// done, 2 s later, and how long until it is back within 25 % of before (30 s at most), then after a full GC (bench/gc-probe.js) with the heap's figures. BENCH_NODE_ARGS
// adds Node flags (bench/lib.js) and the environment reaches the service (e.g. MALLOC_ARENA_MAX=2), to weigh what returns memory.
// One run goes first (Prefer: wait), so the AI SDK is loaded before the burst. While the runs go, it also reports: the model server's open calls (sampled every 50 ms, their mean until the last
// run started, against RUN_CONCURRENCY: does the limit really run at once?), the runs' wait in the queue and time
// executing (from their createdAt, startedAt, endedAt; the gap is the mean of min(RUN_CONCURRENCY, runs queued or going) minus the open calls, over the samples where a run waited in the queue), the longest event-loop stall in the service (a timer probe
// preloaded into it, bench/stall-probe.js), the slowest GET /health/live asked every 100 ms, and the service's CPU per run (main
// thread and all threads, from /proc: steadier than wall time on a shared machine), and where the time went
// (bench/run-phases.js: how late the first wave started, and each run's time outside its model call).
// BENCH_SERVICE_MAIN=path/to/main.js measures another build (e.g. a copy of dist from before a change).
// Usage: npm run build:bench && node bench/runs-in-flight.js [runs=500] [concurrency=100] [modelDelayMs=1000] [--store=sqlite|esdb-test-double]
const autocannon = require('autocannon');
const { join } = require('node:path');
const {
  startServer,
  temporaryDir,
  memoryOf,
  storeArgument,
  positional,
  startStore,
  withGcProbe,
  heapAfterGc,
  threadCpuMs,
} = require('./lib');
const { startScriptedModel } = require('./scripted-model');
const { runPhases } = require('./run-phases');
const { performance } = require('node:perf_hooks');
const { existsSync, readFileSync, rmSync } = require('node:fs');

const [runs = 500, concurrency = 100, modelDelayMs = 1000] = positional().map(Number);
const storeName = storeArgument();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest event-loop stall (and p99) in the service since the last call (bench/stall-probe.js). */
async function stallOf(server, file) {
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGWINCH');
  // The probe may be caught halfway through writing the file: read it until it parses.
  for (let i = 0; ; i++) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        if (i >= 100) throw error;
      }
    } else if (i >= 100) throw new Error(`the stall probe wrote no ${file}`);
    await sleep(50);
  }
}

/** Median, p99 and max of `values` (ms). */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return `median ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms`;
}

/** The agent's runs with `status`, paging through the list (200 a page). */
async function listRuns(url, agentId, status) {
  const runs = [];
  let cursor;
  do {
    const query = `status=${status}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await fetch(`${url}/v1/agents/${agentId}/runs?${query}`);
    if (!response.ok) throw new Error(`list ${status}: HTTP ${response.status} ${await response.text()}`);
    const page = await response.json();
    runs.push(...page.runs);
    cursor = page.nextCursor;
  } while (cursor);
  return runs;
}

async function main() {
  // The model keeps a log of its requests: when each arrived and was answered (bench/run-phases.js).
  const model = await startScriptedModel({ delayMs: modelDelayMs, log: true });
  const store = await startStore(storeName);
  const dir = temporaryDir('bench-runs-in-flight-');
  const probe = join(dir, 'gc-probe.json');
  const gcProbe = withGcProbe(probe);
  const stallFile = join(dir, 'stall.json');
  const server = await startServer(
    process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js'),
    {
      DATA_DIR: dir,
      OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
      RUN_CONCURRENCY: String(concurrency),
      ...store.env,
      ...gcProbe.env,
      STALL_PROBE_FILE: stallFile,
    },
    '/health',
    // The stall probe first: it reads the loop's delays before the GC probe's full GC on the same signal.
    { nodeArgs: ['-r', join(__dirname, 'stall-probe.js'), ...gcProbe.nodeArgs] },
  );
  let peakRssMb = 0;
  let sampler;
  try {
    const created = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', model: 'openai-compatible/bench', instructions: 'Answer briefly.' }),
    });
    if (created.status !== 201) throw new Error(`agent not created: HTTP ${created.status} ${await created.text()}`);
    const agentId = (await created.json()).id;
    // One run first: the AI SDK loads with the first run, not with the burst.
    const warm = await fetch(`${server.url}/v1/agents/${agentId}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: `wait=${Math.ceil(modelDelayMs / 1000) + 30}` },
      body: JSON.stringify({ task: 'Warm up.' }),
    });
    if (warm.status !== 200) throw new Error(`warm-up run: HTTP ${warm.status} ${await warm.text()}`);
    const before = memoryOf(server.pid);
    console.log(
      `${runs} runs, RUN_CONCURRENCY=${concurrency}, scripted model answers after ${modelDelayMs} ms, service on ${storeName}`,
    );

    sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, memoryOf(server.pid).rssMb)), 250);
    await stallOf(server, stallFile);
    // The model server's open calls, every 50 ms; the slowest liveness answer, every 100 ms.
    const openSamples = [];
    let sampling = true;
    const openSampler = setInterval(() => openSamples.push([Date.now(), model.open]), 50);
    let slowestLive = 0;
    const liveProbe = (async () => {
      while (sampling) {
        const asked = performance.now();
        await fetch(`${server.url}/health/live`).then((response) => response.arrayBuffer());
        slowestLive = Math.max(slowestLive, performance.now() - asked);
        await sleep(100);
      }
    })();
    let n = 0;
    const cpuBefore = threadCpuMs(server.pid);
    const started = Date.now();
    const result = await autocannon({
      url: server.url,
      connections: 50,
      amount: runs,
      timeout: 60,
      requests: [
        {
          method: 'POST',
          path: `/v1/agents/${agentId}/run`,
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ task: `Answer briefly (bench-run-${++n}).` }),
          }),
        },
      ],
    });
    const posted = Date.now();
    if (result['2xx'] !== runs) {
      throw new Error(
        `queued ${result['2xx']} of ${runs} runs (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
      );
    }
    console.log(
      `POSTed ${runs} runs in ${((posted - started) / 1000).toFixed(2)} s (202 each; latency median ${result.latency.p50} ms, p99 ${result.latency.p99} ms)`,
    );

    let seen;
    for (;;) {
      const queued = (await listRuns(server.url, agentId, 'queued')).length;
      const running = (await listRuns(server.url, agentId, 'running')).length;
      seen = Date.now();
      if (queued + running === 0) break;
      if (seen - started > 120_000) throw new Error(`not done after 120 s: ${queued} queued, ${running} running`);
      await sleep(250);
    }
    const cpu = threadCpuMs(server.pid);
    const stall = await stallOf(server, stallFile);
    sampling = false;
    clearInterval(openSampler);
    await liveProbe;
    clearInterval(sampler);
    const during = peakRssMb;
    const ended = {};
    for (const status of ['succeeded', 'failed', 'cancelled'])
      ended[status] = await listRuns(server.url, agentId, status);
    const counts = Object.fromEntries(Object.entries(ended).map(([status, list]) => [status, list.length]));
    const lastEnded = Math.max(
      ...Object.values(ended)
        .flat()
        .map((r) => Date.parse(r.endedAt)),
    );
    const all = Object.values(ended)
      .flat()
      .filter((r) => r.task !== 'Warm up.');
    // While runs wait in the queue, the executor should hold min(RUN_CONCURRENCY, runs queued or going) model calls.
    const times = all.map((r) => [Date.parse(r.createdAt), Date.parse(r.startedAt), Date.parse(r.endedAt)]);
    let ideal = 0;
    let open = 0;
    let samplesWaiting = 0;
    for (const [at, opened] of openSamples) {
      if (!times.some(([created, started]) => created <= at && at < started)) continue;
      const going = times.filter(([created, , ended]) => created <= at && at < ended).length;
      ideal += Math.min(concurrency, going);
      open += opened;
      samplesWaiting++;
    }
    const meanIdeal = ideal / Math.max(1, samplesWaiting);
    const meanOpen = open / Math.max(1, samplesWaiting);
    const after = memoryOf(server.pid);
    await sleep(2000);
    const settled = memoryOf(server.pid);
    // V8 gives heap pages back once the process has been idle a while: how long until RSS is near idle again.
    let later = settled;
    let idleAfter;
    for (let second = 3; second <= 30 && idleAfter === undefined; second++) {
      await sleep(1000);
      later = memoryOf(server.pid);
      if (later.rssMb < before.rssMb * 1.25) idleAfter = second;
    }
    const heap = await heapAfterGc(server, probe);

    console.log(`runs: ${JSON.stringify(counts)} (goal: all ${runs} succeeded)`);
    console.log(
      `first POST to last run ended: ${((lastEnded - started) / 1000).toFixed(2)} s by the runs' endedAt, ` +
        `${((seen - started) / 1000).toFixed(2)} s as the polling saw it (goal: about ${((Math.ceil(runs / concurrency) * modelDelayMs) / 1000).toFixed(0)} s)`,
    );
    console.log(`model requests: ${model.requests}, at most ${model.maxOpen} open at once (goal <= ${concurrency})`);
    console.log(
      `model calls open while runs waited in the queue (${((samplesWaiting * 50) / 1000).toFixed(1)} s): mean ${meanOpen.toFixed(1)}, ` +
        `against ${meanIdeal.toFixed(1)} queued or going up to ${concurrency} (gap ${(meanIdeal - meanOpen).toFixed(1)}); ideal ÷ actual ` +
        `${((Math.ceil(runs / concurrency) * modelDelayMs) / 1000 / ((lastEnded - started) / 1000)).toFixed(2)} (goal >= 0.92)`,
    );
    for (const line of runPhases({ runs: all, log: model.log, started, concurrency })) console.log(line);
    // CPU is what a shared machine's load touches least: the main thread's share decides how fast the waves turn.
    const perRun = (ms) => (ms / runs).toFixed(2);
    console.log(
      `service CPU per run (POST to all ended, polling included): ${perRun(cpu.main - cpuBefore.main)} ms on the main thread, ` +
        `${perRun(cpu.all - cpuBefore.all)} ms in all threads`,
    );
    console.log(
      `runs' wait in the queue (createdAt → startedAt): ${spread(all.map((r) => Date.parse(r.startedAt) - Date.parse(r.createdAt)))}`,
    );
    console.log(
      `runs executing (startedAt → endedAt): ${spread(all.map((r) => Date.parse(r.endedAt) - Date.parse(r.startedAt)))}`,
    );
    console.log(
      `longest event-loop stall in the service during the runs: ${stall.maxMs.toFixed(0)} ms (p99 ${stall.p99Ms.toFixed(0)} ms; goal < 100 ms); ` +
        `slowest GET /health/live: ${slowestLive.toFixed(0)} ms`,
    );
    console.log(
      `RSS: ${before.rssMb.toFixed(0)} MB before, ${Math.max(during, after.rssMb).toFixed(0)} MB max during, ` +
        `${after.rssMb.toFixed(0)} MB when done, ${settled.rssMb.toFixed(0)} MB 2 s later, ${later.rssMb.toFixed(0)} MB ` +
        `${idleAfter === undefined ? '30 s later, not back within 25 % of before' : `${idleAfter} s later, within 25 % of before`} ` +
        `(peak ${later.peakRssMb.toFixed(0)} MB)`,
    );
    console.log(
      `after a full GC: RSS ${heap.rss.toFixed(0)} MB, heap used ${heap.heapUsed.toFixed(1)} MB of ${heap.heapTotal.toFixed(1)} MB, ` +
        `external ${heap.external.toFixed(1)} MB, array buffers ${heap.arrayBuffers.toFixed(1)} MB`,
    );
  } finally {
    clearInterval(sampler);
    await server.stop();
    await store.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
