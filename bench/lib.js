'use strict';
// Shared helpers for the benchmarks: start a server process on a free port, wait for it, read its memory.
const { spawn } = require('node:child_process');
const { readFileSync, mkdtempSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function temporaryDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Starts `node script` with PORT set, resolves once `readyPath` answers 200 (within `timeoutMs`). BENCH_NODE_ARGS
 * adds options to that node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS refuses).
 */
async function startServer(script, env = {}, readyPath = '/health', timeoutMs = 60_000) {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script], {
    // No rate limit: a benchmark sends far more than RATE_LIMIT's default per minute from one address.
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = null;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  let ready = false;
  for (let i = 0; i < timeoutMs / 100 && !ready && exited === null; i++) {
    try {
      ready = (await fetch(url + readyPath)).ok;
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`${script} did not answer ${readyPath} on port ${port} (exit: ${exited})`);
  }
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** Resident and peak resident memory of a process, in MB (Linux). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

/** A POST /v1/agents request whose body has a name no other request used. */
function createAgentRequests(prefix) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({
          name: `${prefix}-${++n}`,
          model: 'openai/gpt-4o-mini',
          instructions: 'Benchmark agent: answer briefly.',
          tools: ['current_time'],
        }),
      }),
    },
  ];
}

const STORES = ['sqlite', 'esdb-test-double'];

/** `--store=sqlite|esdb-test-double` from the command line (default sqlite). */
function storeArgument(argv = process.argv) {
  const store = (argv.find((arg) => arg.startsWith('--store=')) ?? '--store=sqlite').slice('--store='.length);
  if (!STORES.includes(store)) throw new Error(`--store must be one of ${STORES.join(', ')}`);
  return store;
}

/** The positional arguments, without `--store=…`. */
function positional(argv = process.argv) {
  return argv.slice(2).filter((arg) => !arg.startsWith('--'));
}

/**
 * Starts the event store a benchmark runs on. sqlite: nothing to start (the service opens its own file).
 * esdb-test-double: the EventStoreDB test double in a process of its own; `env` points the service at it.
 * `doubleEnv`: for the test double's process (see test-double-server.js).
 */
async function startStore(store, doubleEnv = {}) {
  if (store === 'sqlite') return { env: {}, url: undefined, stop: async () => undefined };
  const child = spawn(process.execPath, [join(__dirname, 'test-double-server.js')], {
    env: { ...process.env, ...doubleEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim()));
    child.once('exit', (code) => reject(new Error(`test double exited with ${code}`)));
  });
  return {
    env: { EVENTSTORE_URL: url },
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

module.exports = {
  freePort,
  temporaryDir,
  startServer,
  memoryOf,
  createAgentRequests,
  storeArgument,
  positional,
  startStore,
};
