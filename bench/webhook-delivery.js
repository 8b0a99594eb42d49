'use strict';
// Webhook delivery: events written through the API (POST /v1/agents, each an AgentCreated) delivered to a local
// receiver by one webhook on `AgentCreated`. Agents are created `concurrency` at a time; the receiver (in this
// process) answers 204 and notes the time each event arrives. Prints the delivery rate (events delivered per
// second, from the first append to the last delivery) and the latency from append (the envelope's `recordedAt`,
// stamped by the service on the same machine) to delivery: median, p99, max. Every event is checked to arrive,
// once and in log order.
// Usage: npm run build:bench && node bench/webhook-delivery.js [events=10000] [concurrency=16] [--store=sqlite|esdb-test-double]
// BENCH_SERVICE_MAIN=path/to/main.js measures another build (e.g. a copy of dist from before a change).
// --stall: the receiver holds its first answer until every event is written, so the webhook's whole backlog is in
// the log; then prints the rate of delivering that backlog alone (from the first answer to the last delivery).
const { createServer } = require('node:http');
const { join } = require('node:path');
const {
  startServer,
  temporaryDir,
  storeArgument,
  positional,
  startStore,
  postJson,
  loadAverage,
  cpuSecondsOf,
} = require('./lib');

const [events = 10_000, concurrency = 16] = positional().map(Number);
const storeName = storeArgument();
const stall = process.argv.includes('--stall');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function startReceiver() {
  const received = [];
  let onEach = () => undefined;
  let release;
  const released = stall ? new Promise((resolve) => (release = resolve)) : Promise.resolve();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ at, position: BigInt(event.position), recordedAt: Date.parse(event.recordedAt), id: event.id });
      void released.then(() => {
        response.writeHead(204).end();
        onEach();
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        received,
        release: () => release?.(),
        until: (count) =>
          new Promise((done) => {
            onEach = () => received.length >= count && done();
            onEach();
          }),
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))),
      }),
    ),
  );
}

async function main() {
  const receiver = await startReceiver();
  const store = await startStore(storeName);
  const main = process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js');
  const server = await startServer(main, {
    DATA_DIR: temporaryDir('bench-webhook-delivery-'),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    RUN_EXECUTOR_ENABLED: 'false',
    ...(stall ? { WEBHOOK_TIMEOUT_MS: '600000' } : {}),
    ...store.env,
  });
  try {
    await postJson(server.url, '/v1/webhooks', { url: receiver.url, events: ['AgentCreated'] });
    const cpuBefore = cpuSecondsOf(server.pid);
    const started = Date.now();
    let next = 0;
    const writer = async () => {
      while (next < events) {
        const n = next++;
        await postJson(server.url, '/v1/agents', { name: `bench-${n}`, model: 'openai/gpt-4o-mini' });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, writer));
    const written = Date.now();
    const cpuWritten = cpuSecondsOf(server.pid);
    receiver.release();
    await receiver.until(events);
    const finished = Date.now();
    const cpu = cpuSecondsOf(server.pid) - cpuBefore;
    const { received } = receiver;
    const inOrder = received.every((r, i) => i === 0 || received[i - 1].position < r.position);
    const distinct = new Set(received.map((r) => r.id)).size;
    const first = Math.min(...received.map((r) => r.recordedAt));
    const latencies = received.map((r) => r.at - r.recordedAt).sort((a, b) => a - b);
    console.log(`${main} on ${storeName}, ${events} events written ${concurrency} at a time; ${loadAverage()}`);
    console.log(
      `  written in ${((written - started) / 1000).toFixed(1)} s (${Math.round((events * 1000) / (written - started))}/s); ` +
        `all delivered ${((finished - written) / 1000).toFixed(1)} s after the last write`,
    );
    console.log(
      `  delivery rate ${Math.round((events * 1000) / (finished - first))} events/s; append to delivery: ` +
        `median ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
    );
    if (stall) {
      const rate = Math.round(((events - 1) * 1000) / (finished - written));
      const perEvent = ((cpuSecondsOf(server.pid) - cpuWritten) * 1000) / (events - 1);
      console.log(
        `  the backlog (held behind the first answer until the writes were done) delivered at ${rate}/s, ` +
          `${perEvent.toFixed(2)} ms of service CPU per event`,
      );
    }
    console.log(
      `  service CPU ${cpu.toFixed(1)} s (${((cpu * 1000) / events).toFixed(2)} ms per event written and delivered)`,
    );
    console.log(`  received ${received.length}, distinct ${distinct}, in log order: ${inOrder ? 'yes' : 'NO'}`);
    if (received.length !== events || distinct !== events || !inOrder) process.exitCode = 1;
  } finally {
    await server.stop();
    await store.stop();
    await receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
