'use strict';
// Command throughput with tracing off (no OTLP endpoint: the SDK is not loaded) against tracing on (every request
// traced, its spans sent over OTLP/HTTP to a local receiver in this process), same machine, same run. The two
// services take turns in one-second slices, so a slow phase of the disk or a noisy neighbour hits both; each round
// starts fresh servers, and the ratio on/off is the median of the rounds. Goal: on >= 0.9 × off.
// Commands (--command=): agents (POST /v1/agents, default) or run (POST /v1/agents/{id}/run, runs recorded only).
// Usage: npm run build:bench && node bench/tracing-overhead.js [seconds=10] [connections=10] [rounds=3] [--command=agents|run]
// BENCH_COMPARE_MAIN=path/to/main.js also measures another build with tracing on, each round against the same
// tracing-off baseline (e.g. a copy of dist from before a change: `cp -r dist .bench-before/`).
const autocannon = require('autocannon');
const { createServer } = require('node:http');
const { join } = require('node:path');
const {
  startServer,
  temporaryDir,
  createAgentRequests,
  positional,
  loadAverage,
  postJson: post,
  sliceTarget,
  loadSlice,
  sliceFigures,
  cpuSecondsOf,
} = require('./lib');

const [seconds = 10, connections = 10, rounds = 3] = positional().map(Number);
const command = (process.argv.find((arg) => arg.startsWith('--command=')) ?? '--command=agents').slice(10);
const SLICE_SECONDS = 1;
const TARGETS = 100;

/** An OTLP/HTTP receiver: answers each export at once, and counts what arrives. */
async function startReceiver() {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (received.bytes += chunk.length));
    req.on('end', () => {
      received.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    endpoint: `http://127.0.0.1:${server.address().port}`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function requestsFor(label, url) {
  if (command === 'agents') return (prefix) => createAgentRequests(`${prefix}-${label}`);
  if (command !== 'run') throw new Error('--command must be agents or run');
  const paths = [];
  for (let i = 0; i < TARGETS; i++) {
    const agent = await post(url, '/v1/agents', { name: `${label}-agent-${i}`, model: 'openai/gpt-4o-mini' });
    paths.push(`/v1/agents/${agent.id}/run`);
  }
  let n = 0;
  return () => [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, path: paths[n++ % paths.length], body: `{"task":"Task ${n}"}` }),
    },
  ];
}

async function prepare(label, env, main = join(__dirname, '..', 'dist', 'main.js')) {
  const server = await startServer(main, {
    DATA_DIR: temporaryDir(`bench-${label}-`),
    RUN_EXECUTOR_ENABLED: 'false',
    ...env,
  });
  const requests = await requestsFor(label, server.url);
  await autocannon({ url: server.url, connections, duration: 2, requests: requests('warmup') });
  return sliceTarget(label, server, requests);
}

async function round(number) {
  const receiver = await startReceiver();
  const targets = [];
  try {
    targets.push(await prepare('tracing-off', {}));
    targets.push(await prepare('tracing-on', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }));
    const compared = process.env.BENCH_COMPARE_MAIN;
    if (compared) {
      targets.push(await prepare('compared-on', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }, compared));
    }
    const slices = Math.max(1, Math.round(seconds / SLICE_SECONDS));
    for (let index = 0; index < slices; index++) {
      const order = index % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const cpu = cpuSecondsOf(target.server.pid);
        await loadSlice(target, index, { connections, seconds: SLICE_SECONDS });
        target.cpuSeconds = (target.cpuSeconds ?? 0) + cpuSecondsOf(target.server.pid) - cpu;
      }
    }
    const [off, on, comparedOn] = targets.map(sliceFigures);
    // The last batch is sent as the service stops.
    await Promise.all(targets.map((target) => target.server.stop()));
    const ratio = on.requestsPerSecond / off.requestsPerSecond;
    // CPU time per request of each service, all its threads (the exporter's included): a second view, less bound
    // to how the machine's cores were shared out during the slices.
    const [offCpu, onCpu, comparedCpu] = targets.map((target) => (1e6 * target.cpuSeconds) / target.requestCount);
    console.log(
      `  CPU per request, all threads: off ${offCpu.toFixed(0)} µs, on ${onCpu.toFixed(0)} µs (off/on ${(offCpu / onCpu).toFixed(2)})`,
    );
    if (comparedOn) {
      console.log(
        `  compared build (BENCH_COMPARE_MAIN), on/off ${(comparedOn.requestsPerSecond / off.requestsPerSecond).toFixed(2)}; CPU per request ${comparedCpu.toFixed(0)} µs (off/on ${(offCpu / comparedCpu).toFixed(2)})`,
      );
    }
    console.log(
      `round ${number}: on/off ${ratio.toFixed(2)}; the receiver got ${receiver.received.exports} exports, ${(receiver.received.bytes / 1e6).toFixed(1)} MB (${loadAverage()})`,
    );
    if (receiver.received.exports === 0) console.log('  WARNING: no spans arrived: tracing was not on');
    return ratio;
  } finally {
    await Promise.all(targets.map((target) => target.server.stop()));
    await receiver.stop();
  }
}

async function main() {
  console.log(`${command}, ${connections} connections, ${seconds} s each, ${rounds} rounds, tracing off vs on`);
  const ratios = [];
  for (let number = 1; number <= rounds; number++) ratios.push(await round(number));
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  console.log(`median ratio tracing on/off: ${median.toFixed(2)} (goal >= 0.9)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
