'use strict';
// GET /v1/events at a large log: the answer time of the worst filtered queries (the probes of issue 18: sixteen
// stream names that match nothing, types that match nothing, many types, pages backwards, an SSE subscriber whose
// filter matches nothing catching up from the start), and the longest event-loop stall in the service while each
// runs, by a timer probe preloaded into it (bench/stall-probe.js). Goals at 1,000,000 events: every query < 50 ms,
// every stall < 20 ms.
// Usage: npm run build:bench && node bench/event-queries.js [events=1000000] [repeats=3] [--cache]
// --cache keeps the seeded log in the temporary folder for the next run of the same size (seeding takes minutes).
const http = require('node:http');
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/event-store/sqlite/sqlite-event-store');
const { readStall: stall } = require('./hostile-input/probe');
const {
  startServer,
  temporaryDir,
  positional,
  seedSqliteLog,
  serviceNodeFlags,
  loadAverage,
  timedGet,
} = require('./lib');

const [total = 1_000_000, repeats = 3] = positional().map(Number);
const cache = process.argv.includes('--cache');
const GOAL_MS = 50;
const STALL_GOAL_MS = 20;

/** An SSE subscriber from the start whose filter matches nothing: it catches up over the whole log, then idles. */
function subscribeForMs(url, path, ms) {
  return new Promise((resolve, reject) => {
    const request = http.get(url + path, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      response.resume();
      setTimeout(() => {
        request.destroy();
        resolve({ status: response.statusCode });
      }, ms);
    });
    request.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

async function main() {
  const dir = temporaryDir('bench-event-queries-');
  const seedStarted = Date.now();
  await seedSqliteLog(SqliteEventStore, join(dir, 'events.sqlite'), total, 'queued', cache);
  const seeded = (Date.now() - seedStarted) / 1000;
  const probeFile = join(dir, 'stall.json');
  const startStarted = Date.now();
  const server = await startServer(
    join(__dirname, '..', 'dist', 'main.js'),
    { DATA_DIR: dir, RUN_EXECUTOR_ENABLED: 'false', SCHEDULER_ENABLED: 'false', STALL_PROBE_FILE: probeFile },
    '/health/ready',
    { nodeArgs: [...serviceNodeFlags(), '-r', join(__dirname, 'stall-probe.js')], timeoutMs: 600_000 },
  );
  const started = (Date.now() - startStarted) / 1000;
  try {
    const head = (await timedGet(server.url, '/v1/events?from=end')).body.nextAfter;
    const workflow = (await timedGet(server.url, '/v1/events?types=WorkflowCreated&order=desc&limit=1')).body.events[0];
    const sixteen = [...'0123456789abcdef'].map((digit) => `agentname-${digit}`).join(',');
    const nothing = 'AgentRunSucceeded,WorkflowRunFailed';
    const hundred = Array.from({ length: 100 }, (_, i) => `NoSuchType${i}`).join(',');
    const probes = [
      ['16 stream names matching nothing, limit=1', `/v1/events?stream=${sixteen}&limit=1`],
      ['1 type matching nothing', '/v1/events?types=AgentRunSucceeded&limit=50'],
      ['2 types matching nothing', `/v1/events?types=${nothing}&limit=50`],
      ['100 types matching nothing', `/v1/events?types=${hundred}&limit=200`],
      ['2 types matching nothing, after the middle', `/v1/events?types=${nothing}&after=${Math.floor(head / 2)}`],
      ['a common type, limit=200', '/v1/events?types=AgentCreated&limit=200'],
      ['one workflow stream, limit=200', `/v1/events?stream=${workflow.stream}&limit=200`],
      ['newest 200 (order=desc)', '/v1/events?order=desc&limit=200'],
      ['newest of 2 types matching nothing (order=desc)', `/v1/events?types=${nothing}&order=desc&limit=200`],
      ['from=end', '/v1/events?from=end'],
    ];
    console.log(`events: ${head} (seeded in ${seeded.toFixed(0)} s, service ready in ${started.toFixed(0)} s)`);
    const rows = [];
    for (const [name, path] of probes) {
      let worstMs = 0;
      let worstStall = 0;
      let events = 0;
      for (let i = 0; i < repeats; i++) {
        await stall(server, probeFile);
        const { ms, body } = await timedGet(server.url, path);
        const { maxMs } = await stall(server, probeFile);
        worstMs = Math.max(worstMs, ms);
        worstStall = Math.max(worstStall, maxMs);
        events = body.events.length;
      }
      rows.push({ query: name, events, worstMs: +worstMs.toFixed(1), worstStallMs: +worstStall.toFixed(1) });
    }
    await stall(server, probeFile);
    await subscribeForMs(server.url, `/v1/events?types=${nothing}`, 3000);
    const { maxMs } = await stall(server, probeFile);
    rows.push({
      query: 'SSE, 2 types matching nothing, from the start (3 s)',
      events: 0,
      worstMs: NaN,
      worstStallMs: +maxMs.toFixed(1),
    });
    console.table(rows);
    const worstQuery = Math.max(...rows.filter((row) => !Number.isNaN(row.worstMs)).map((row) => row.worstMs));
    const worstStall = Math.max(...rows.map((row) => row.worstStallMs));
    console.log(
      `worst query ${worstQuery.toFixed(1)} ms (goal < ${GOAL_MS}), longest stall ${worstStall.toFixed(1)} ms (goal < ${STALL_GOAL_MS}); ${loadAverage()}`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
