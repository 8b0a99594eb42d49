'use strict';
// Shared helpers for the benchmarks: start a server process on a free port, wait for it, read its memory, seed logs.
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { readFileSync, mkdtempSync, existsSync, copyFileSync, rmSync } = require('node:fs');
const http = require('node:http');
const { createServer } = require('node:net');
const { tmpdir, loadavg } = require('node:os');
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
 * Spawns `node [nodeArgs] script` with PORT set; does not wait for it. The service (dist/main.js) runs with the
 * flags `npm start` gives it, unless `nodeArgs` name some. BENCH_NODE_ARGS adds options to that node, after those (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS refuses).
 */
async function spawnServer(script, env = {}, nodeArgs = []) {
  const port = await freePort();
  const flags = nodeArgs.length === 0 && script.endsWith(join('dist', 'main.js')) ? serviceNodeFlags() : nodeArgs;
  const benchArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // After the service's own flags: of a flag given twice the last counts, so BENCH_NODE_ARGS wins.
  const child = spawn(process.execPath, [...flags, ...benchArgs, script], {
    // No rate limit: a benchmark sends far more than RATE_LIMIT's default per minute from one address.
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const server = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    exited: null,
    stop: () =>
      new Promise((resolve) => {
        if (server.exited !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
    kill: () => child.kill('SIGKILL'),
  };
  child.once('exit', (code, signal) => (server.exited = signal ?? code));
  return server;
}

/** The status code of a GET, or undefined when nothing answered (node:http: lighter than fetch to poll with). */
function statusOf(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
  });
}

/** Polls `path` every `intervalMs` until it answers 200; false if the server exited or `timeoutMs` passed. */
async function answers(server, path, { intervalMs = 100, timeoutMs = 60_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (server.exited === null && Date.now() < deadline) {
    if ((await statusOf(server.url + path)) === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/** Starts `node script` with PORT set, resolves once `readyPath` answers 200. */
async function startServer(script, env = {}, readyPath = '/health', { nodeArgs = [], timeoutMs = 60_000 } = {}) {
  const server = await spawnServer(script, env, nodeArgs);
  if (!(await answers(server, readyPath, { timeoutMs }))) {
    server.kill();
    throw new Error(`${script} did not answer ${readyPath} at ${server.url} (exit: ${server.exited})`);
  }
  return server;
}

/** CPU seconds (user + system) a process has used so far (Linux). */
function cpuSecondsOf(pid) {
  return cpuTicks(`/proc/${pid}/stat`) / 100;
}

/** User + system clock ticks (10 ms) of /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat. */
function cpuTicks(path) {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ms of a service's main thread and of all its threads (10 ms steps). */
function threadCpuMs(pid) {
  return { main: cpuTicks(`/proc/${pid}/task/${pid}/stat`) * 10, all: cpuTicks(`/proc/${pid}/stat`) * 10 };
}

/** Resolves once the process used less than 5% of a core over a second (its work at start is done). */
async function settled(pid, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  let before = cpuSecondsOf(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSecondsOf(pid);
    if (now - before < 0.05) return;
    before = now;
  }
  throw new Error(`process ${pid} was still busy after ${timeoutMs} ms`);
}

/** The Node flags `npm start` runs the service with (package.json), so that benchmarks measure what runs. */
function serviceNodeFlags() {
  return require('../package.json')
    .scripts.start.split(/\s+/)
    .filter((arg) => arg.startsWith('--'));
}

/**
 * Options for startServer that preload bench/gc-probe.js into the service (with --expose-gc, in benchmarks only),
 * so that `heapAfterGc` can ask it for its memory after a full garbage collection.
 */
function withGcProbe(file) {
  return {
    nodeArgs: [...serviceNodeFlags(), '--expose-gc', '-r', join(__dirname, 'gc-probe.js')],
    env: { GC_PROBE_FILE: file },
  };
}

/** The service's process.memoryUsage() after a full GC, in MB (see withGcProbe). */
async function heapAfterGc(server, file) {
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGWINCH');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const usage = JSON.parse(readFileSync(file, 'utf8'));
  return Object.fromEntries(Object.entries(usage).map(([key, bytes]) => [key, bytes / 2 ** 20]));
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

/** POSTs `body` as JSON and returns the answer's JSON; a non-2xx answer throws with its status and body. */
async function postJson(url, path, body) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them, to read a figure against. */
function loadAverage() {
  return `load average: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`;
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

const AT = new Date('2026-01-01T00:00:00.000Z').toISOString();
const newEvent = (type, data) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });
const padded = (prefix, n) => `${prefix}_${String(n).padStart(26, '0')}`;

/** The five agents of workflow `i` (`a{i}-0` … `a{i}-4`): each a name claim and a create, with one tool. */
function* fiveAgents(i, tool) {
  for (let a = 0; a < 5; a++) {
    const id = padded('agent', i * 5 + a);
    const name = `a${i}-${a}`;
    yield [`agentname-${name}`, [newEvent('AgentNameClaimed', { name, agentId: id, claimedAt: AT })]];
    const agent = { id, name, model: 'openai/gpt-4o-mini', instructions: 'Be brief.', tools: [tool], createdAt: AT };
    yield [`agent-${id}`, [newEvent('AgentCreated', agent)]];
  }
}

/**
 * The `queued` mix (bench/rebuild.js), per 20 events: 5 agents (name claim + create), 1 workflow, 3 triggers
 * (trigger + run queued), 3 agent runs queued. Yields [stream, events] appends.
 */
function* queuedHistory(count) {
  for (let i = 0; i * 20 < count; i++) {
    const wf = padded('wf', i);
    yield [
      `workflow-${wf}`,
      [
        newEvent('WorkflowCreated', {
          id: wf,
          name: `wf ${i}`,
          trigger: { type: 'manual' },
          steps: [{ agent: `a${i}-0`, action: 'go' }],
          createdAt: AT,
        }),
      ],
    ];
    yield* fiveAgents(i, 'web_search');
    for (let r = 0; r < 3; r++) {
      const runId = padded('wfrun', i * 3 + r);
      yield [
        `workflow-${wf}`,
        [
          newEvent('WorkflowTriggered', {
            workflowId: wf,
            runId,
            input: { r },
            trigger: { type: 'manual' },
            triggeredAt: AT,
          }),
        ],
      ];
      yield [
        `workflowrun-${runId}`,
        [
          newEvent('WorkflowRunQueued', {
            id: runId,
            workflowId: wf,
            input: { r },
            trigger: { type: 'manual' },
            createdAt: AT,
          }),
        ],
      ];
      const agentRunId = padded('agentrun', i * 3 + r);
      yield [
        `agentrun-${agentRunId}`,
        [
          newEvent('AgentRunQueued', {
            id: agentRunId,
            agentId: padded('agent', i * 5),
            task: 'Summarise',
            context: { r },
            createdAt: AT,
          }),
        ],
      ];
    }
  }
}

/** An agent run from queued to succeeded, with one tool call and a lease renewal: 7 events. */
function* endedAgentRun(runId, agentId, step) {
  const stream = `agentrun-${runId}`;
  const ref = step ? { workflowRunId: step.runId, stepIndex: 0 } : {};
  yield [
    stream,
    [
      newEvent('AgentRunQueued', {
        id: runId,
        agentId,
        model: 'openai/gpt-4o-mini',
        agentVersion: 1,
        task: 'Summarise the input',
        context: { input: { topic: 'cron' } },
        ...ref,
        createdAt: AT,
      }),
    ],
  ];
  yield [
    stream,
    [newEvent('AgentRunStarted', { runId, executorId: 'bench-1', warnings: [], agentVersion: 1, startedAt: AT })],
  ];
  yield [
    stream,
    [
      newEvent('AgentRunToolCalled', {
        runId,
        callId: 'call_1',
        tool: 'current_time',
        input: { timezone: 'UTC' },
        at: AT,
      }),
    ],
  ];
  yield [
    stream,
    [newEvent('AgentRunToolReturned', { runId, callId: 'call_1', tool: 'current_time', output: { now: AT }, at: AT })],
  ];
  yield [stream, [newEvent('AgentRunLeaseRenewed', { runId, executorId: 'bench-1', at: AT })]];
  const usage = { inputTokens: 120, outputTokens: 40, totalTokens: 160 };
  yield [
    stream,
    [
      newEvent('AgentRunSucceeded', {
        runId,
        usage,
        attempts: 1,
        endedAt: AT,
        ...ref,
        output: 'Three facts about cron.',
      }),
    ],
  ];
}

/**
 * The `ended` mix (bench/startup.js), per 50 events: 1 workflow (1 in 10 on an hourly schedule), 5 agents (name
 * claim + create), 3 updates of one of them, 2 workflow runs of one step (trigger, run queued, started + step
 * started, the step's agent run, step ended, run succeeded: 12 each) and 2 agent runs requested directly (6 each).
 * Every run has ended, as in a log at rest.
 */
function* endedHistory(count) {
  for (let i = 0; i * 50 < count; i++) {
    const wf = padded('wf', i);
    const trigger = i % 10 === 0 ? { type: 'schedule', cron: '0 * * * *', timezone: 'UTC' } : { type: 'manual' };
    const agentName = `a${i}-0`;
    const steps = [{ agent: agentName, action: 'Summarise {{input.topic}}' }];
    yield [`workflow-${wf}`, [newEvent('WorkflowCreated', { id: wf, name: `wf ${i}`, trigger, steps, createdAt: AT })]];
    yield* fiveAgents(i, 'current_time');
    const agentId = padded('agent', i * 5);
    for (let u = 0; u < 3; u++) {
      yield [
        `agent-${agentId}`,
        [
          newEvent('AgentUpdated', {
            agentId,
            changes: { instructions: `Be brief (${u}).` },
            version: u + 2,
            updatedAt: AT,
          }),
        ],
      ];
    }
    for (let r = 0; r < 2; r++) {
      const runId = padded('wfrun', i * 2 + r);
      const agentRunId = padded('agentrun', i * 4 + r);
      const input = { topic: 'cron' };
      const stream = `workflowrun-${runId}`;
      yield [
        `workflow-${wf}`,
        [
          newEvent('WorkflowTriggered', {
            workflowId: wf,
            runId,
            input,
            trigger: { type: 'manual' },
            workflowVersion: 1,
            triggeredAt: AT,
          }),
        ],
      ];
      yield [
        stream,
        [
          newEvent('WorkflowRunQueued', {
            id: runId,
            workflowId: wf,
            input,
            trigger: { type: 'manual' },
            workflowVersion: 1,
            createdAt: AT,
          }),
        ],
      ];
      yield [
        stream,
        [
          newEvent('WorkflowRunStarted', { runId, workflowName: `wf ${i}`, workflowVersion: 1, steps, startedAt: AT }),
          newEvent('WorkflowStepStarted', {
            runId,
            index: 0,
            agent: agentName,
            task: 'Summarise cron',
            agentRunId,
            startedAt: AT,
          }),
        ],
      ];
      yield* endedAgentRun(agentRunId, agentId, { runId });
      yield [
        stream,
        [
          newEvent('WorkflowStepEnded', {
            runId,
            index: 0,
            status: 'succeeded',
            output: 'Three facts about cron.',
            endedAt: AT,
          }),
        ],
      ];
      yield [stream, [newEvent('WorkflowRunSucceeded', { runId, output: 'Three facts about cron.', endedAt: AT })]];
    }
    for (let r = 2; r < 4; r++) yield* endedAgentRun(padded('agentrun', i * 4 + r), agentId);
  }
}

const HISTORIES = { queued: queuedHistory, ended: endedHistory };

/**
 * A SQLite event log of `count` events of `mix` at `file`, seeded through the store. With `cache`, the seeded
 * file is kept in the temporary folder and copied on later runs (seeding 1,000,000 events takes about a minute).
 */
async function seedSqliteLog(SqliteEventStore, file, count, mix, cache) {
  const cached = join(tmpdir(), `bench-log-v1-${mix}-${count}.sqlite`);
  if (cache && existsSync(cached)) return copyFileSync(cached, file);
  const store = new SqliteEventStore({ file, synchronous: 'NORMAL' });
  await seedLog(store, count, mix);
  await store.close();
  if (cache) copyFileSync(file, cached);
}

/**
 * Appends `count` events of the `mix` (about: whole units of it) through the store, 1,000 appends at a time. With
 * `from`, the first `from` events of that history are left out: a log seeded to `from` grows to `count`.
 */
async function seedLog(store, count, mix = 'queued', from = 0) {
  let pending = [];
  let seen = 0;
  for (const [stream, events] of HISTORIES[mix](count)) {
    seen += events.length;
    if (seen <= from) continue;
    pending.push(store.append(stream, events, { expected: 'any' }));
    if (pending.length === 1000) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
}

let runTag = 0;

/**
 * One run POSTed to `path` with `Prefer: wait=30` and waited for: its wall latency, the scripted model's answer time
 * for it (bench/scripted-model.js, matched by a tag in the task) and their difference, the service's overhead, in ms.
 */
async function timedRun(url, path, model) {
  const tag = `bench-run-${++runTag}`;
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    body: JSON.stringify({ task: `Answer briefly (${tag}).` }),
  });
  const body = await response.json();
  const latency = performance.now() - started;
  if (response.status !== 200 || body.status !== 'succeeded') {
    throw new Error(`${tag}: HTTP ${response.status}, run ${body.status} ${JSON.stringify(body.error ?? body)}`);
  }
  const modelMs = model.timeOf(tag);
  if (modelMs === undefined) throw new Error(`${tag}: the scripted model saw no request`);
  return { latency, modelMs, overhead: latency - modelMs };
}

/**
 * Starts each build (a main.js) on a data folder of its own against the scripted model, with one agent, warmed up
 * by 30 runs; each server gets `path`, the agent's run URL. `servers` is filled as they start, for the caller to
 * stop them even when a later one fails.
 */
async function startRunBuilds(mains, model, dirPrefix, servers) {
  for (const script of mains) {
    const server = await startServer(script, {
      DATA_DIR: temporaryDir(dirPrefix),
      OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
      RUN_CONCURRENCY: '10',
    });
    servers.push(server);
    const agent = await postJson(server.url, '/v1/agents', {
      name: 'bench',
      model: 'openai-compatible/bench',
      instructions: 'Answer briefly.',
    });
    server.path = `/v1/agents/${agent.id}/run`;
    for (let i = 0; i < 30; i++) await timedRun(server.url, server.path, model);
  }
}

/** A server of a comparison that takes turns in slices of load: its label, its requests, and its counts so far. */
function sliceTarget(label, server, requests) {
  return { label, server, requests, requestCount: 0, seconds: 0, latencies: [], non2xx: 0, errors: 0 };
}

/** One slice of load on one target (`connections` for `seconds`); its counts add up to the round's figures. */
async function loadSlice(target, index, { connections, seconds }) {
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: target.server.url,
    connections,
    duration: seconds,
    requests: target.requests(`slice${index}`),
  });
  target.seconds += Number(process.hrtime.bigint() - started) / 1e9;
  target.requestCount += result.requests.total;
  target.latencies.push(result.latency.p99);
  target.non2xx += result.non2xx;
  target.errors += result.errors;
}

/** A target's req/s over its slices and the median of their p99s, printed under its label (a warning for non-2xx). */
function sliceFigures(target) {
  const p99s = [...target.latencies].sort((a, b) => a - b);
  const result = {
    requestsPerSecond: Math.round(target.requestCount / target.seconds),
    medianSliceP99Ms: p99s[Math.floor(p99s.length / 2)],
    non2xx: target.non2xx,
    errors: target.errors,
  };
  console.log(target.label.padEnd(12), JSON.stringify(result));
  if (result.non2xx > 0)
    console.log(
      `  WARNING: ${target.label} answered ${result.non2xx} non-2xx responses: the figure is not of commands`,
    );
  return result;
}

/** GETs `path` (JSON) on a fresh connection, resolving with the answer's time in ms and its body. */
function timedGet(url, path) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(url + path, { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode} ${body}`));
          else resolve({ ms, body: JSON.parse(body) });
        });
      })
      .on('error', reject);
  });
}

module.exports = {
  timedGet,
  sliceTarget,
  loadSlice,
  sliceFigures,
  timedRun,
  freePort,
  temporaryDir,
  spawnServer,
  answers,
  startServer,
  settled,
  cpuSecondsOf,
  threadCpuMs,
  startRunBuilds,
  serviceNodeFlags,
  withGcProbe,
  heapAfterGc,
  memoryOf,
  createAgentRequests,
  postJson,
  storeArgument,
  positional,
  startStore,
  seedLog,
  seedSqliteLog,
  loadAverage,
};
