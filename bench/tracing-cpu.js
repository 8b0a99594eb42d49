'use strict';
// Tracing's cost per request as CPU time, not req/s: the services (tracing off, tracing on, and optionally another
// build with tracing on) all run at once, each sent the same POST /v1/agents at the same fixed rate, so a noisy
// neighbour slows them alike; CPU per request is read from /proc for the main thread and for the other threads
// (SQLite writer, GC helpers) apart. The OTLP receiver runs in a process of its own, so its CPU is counted apart too.
// Usage: npm run build:bench && node bench/tracing-cpu.js [rate=200 per service] [requests=3000] [rounds=3]
// BENCH_COMPARE_MAIN=path/to/main.js adds another build with tracing on (e.g. .bench-before/dist/main.js).
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { startServer, temporaryDir, createAgentRequests, positional, loadAverage } = require('./lib');

const [rate = 200, requests = 3000, rounds = 3] = positional().map(Number);
const WARMUP = 1500;

/** CPU ms of a task (thread) of a process: user + system, from /proc. */
function cpuMsOf(file) {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function threadsOf(pid) {
  const cpu = { main: 0, other: 0 };
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      cpu[task === String(pid) ? 'main' : 'other'] += cpuMsOf(`/proc/${pid}/task/${task}/stat`);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

/** An OTLP/HTTP receiver in a child process: drains each export and answers 200, as a collector's socket would. */
async function startReceiver() {
  const source = `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()); });
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const endpoint = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  return { endpoint, pid: child.pid, stop: () => child.kill() };
}

function fire(url, amount, prefix, overallRate) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 10, amount, overallRate, requests: createAgentRequests(prefix) }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

async function main() {
  const receiver = await startReceiver();
  const services = [
    { label: 'off', main: join(__dirname, '..', 'dist', 'main.js'), env: {} },
    {
      label: 'on',
      main: join(__dirname, '..', 'dist', 'main.js'),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    },
  ];
  if (process.env.BENCH_COMPARE_MAIN) {
    services.push({ label: 'compared-on', main: process.env.BENCH_COMPARE_MAIN, env: services[1].env });
  }
  console.log(`${services.length} services at once, ${rate} req/s each, ${requests} requests, ${rounds} rounds`);
  try {
    for (let round = 1; round <= rounds; round++) {
      const servers = [];
      try {
        for (const service of services) {
          const env = { DATA_DIR: temporaryDir('tracing-cpu-'), RUN_EXECUTOR_ENABLED: 'false', ...service.env };
          servers.push(await startServer(service.main, env));
        }
        await Promise.all(servers.map((server, i) => fire(server.url, WARMUP, `warm-${i}`)));
        const before = servers.map((server) => threadsOf(server.pid));
        const receiverBefore = cpuMsOf(`/proc/${receiver.pid}/stat`);
        const results = await Promise.all(servers.map((server, i) => fire(server.url, requests, `m-${i}`, rate)));
        // The last batch of spans goes out within a second.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const after = servers.map((server) => threadsOf(server.pid));
        const perRequest = (ms) => (1000 * ms) / requests;
        const figures = services.map((service, i) => {
          const main = perRequest(after[i].main - before[i].main);
          const other = perRequest(after[i].other - before[i].other);
          const failed = results[i].non2xx + results[i].errors;
          return { label: service.label, main, all: main + other, failed };
        });
        const off = figures[0];
        for (const figure of figures) {
          console.log(
            `  ${figure.label.padEnd(12)} ${figure.all.toFixed(0)} µs per request (main thread ${figure.main.toFixed(0)}); off/this ${(off.all / figure.all).toFixed(2)} (main ${(off.main / figure.main).toFixed(2)})${figure.failed ? `; ${figure.failed} FAILED` : ''}`,
          );
        }
        const receiverCpu = perRequest(cpuMsOf(`/proc/${receiver.pid}/stat`) - receiverBefore);
        console.log(`round ${round}: the receiver used ${receiverCpu.toFixed(0)} µs per request (${loadAverage()})`);
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
  } finally {
    receiver.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
