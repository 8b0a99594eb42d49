'use strict';
// Agents as tools: what a run costs when a parent's tool call starts it, and how well a wide tree fills the slots.
// The service runs as a child process on the embedded SQLite store, with RUN_CONCURRENCY=10, against a scripted
// Chat Completions server in this process (bench/scripted-model.js), which answers by the model a request names.
// Both measurements take their times in this process, on one clock (performance.now()).
//
// 1. Child-run overhead. Agent `child` (model `child`) answers with a short text at once. Agent `parent` (model
// `parent`, tools ["agent:child"]) first answers with one call of `agent_child`, then, given its result, with a
// text. A tree (a run of `parent`) and a direct run of `child` take turns, one at a time, after a warm-up; each is
// POST /v1/agents/{id}/run with `Prefer: wait=30`. Each run of `child` is seen from both of its ends:
//   direct run: start = the POST sent -> the child model's request arrived;
//               end   = the child model's answer written -> the POST's answer (the run ended) read.
//   child run:  start = the parent model's tool call written -> the child model's request arrived;
//               end   = the child model's answer written -> the parent model's next request arrived.
// A direct run's start covers the HTTP request, queueing and claiming the run and the call to the model; its end,
// reading the model's answer, recording the run's end and the HTTP answer. A child run's start covers the parent
// reading its model's answer, recording that it waits, queueing and claiming the child and the child's model call;
// its end, reading the child's answer, recording its end, telling the parent, queueing and claiming the parent
// again, rebuilding its conversation and its next model call. The child-run overhead is the difference of the
// medians of start + end (child minus direct): the tree's own machinery, less the HTTP edges a direct run has.
// The HTTP client here is node:http on a kept-alive connection, so that it adds as little as it can to a direct
// run. The goal is a median overhead under 5 ms.
//
// 2. Wide tree makespan. Agent `supervisor` has 50 agents (`worker-0` … `worker-49`) as tools and calls all of them
// in its first answer (one streamed answer of 50 tool calls); every model call of this part answers after 1 s. The
// ideal makespan is 1 s (the supervisor's first call) + ceil(50 / 10) x 1 s (the children, 10 at a time) + 1 s (its
// last call) = 7 s. The makespan is the wall time of POST /v1/agents/{supervisor}/run with `Prefer: wait=60`,
// averaged over the repetitions; the figure is ideal / actual (goal >= 0.9). Also reported: the most model requests
// open at once (at most 10: the waiting parent holds none), the gaps between the supervisor's calls and its
// children's, and each slot's hand-off (a child's answer written to the next child's request).
// BENCH_NODE_ARGS adds Node flags to the service (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`; bench/lib.js).
// Usage: npm run build:bench && node bench/agent-tree.js [trees=200] [warmup=20] [width=50] [repetitions=3] [modelDelayMs=1000]
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, positional, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [trees = 200, warmup = 20, width = 50, repetitions = 3, modelDelayMs = 1000] = positional().map(Number);
const CONCURRENCY = 10;
/** The model's name of the tool of agent `name`, as the service gives it. */
const toolName = (name) => `agent_${name.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
const hasToolResult = (body) => body.messages.some((message) => message.role === 'tool');
/** The number after `prefix` in a request's messages (its first occurrence), or undefined. */
const tagOf = (body, prefix) => {
  const found = new RegExp(`${prefix}-(\\d+)`).exec(JSON.stringify(body.messages));
  return found ? Number(found[1]) : undefined;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tool calls each model answers with (none: a text): the parent calls the child, the supervisor its workers. */
function toolCalls(body) {
  if (hasToolResult(body)) return undefined;
  if (body.model === 'parent') {
    const task = `Answer briefly (bench-child-${tagOf(body, 'bench-tree')}).`;
    return [{ name: toolName('child'), arguments: { task } }];
  }
  if (body.model === 'supervisor') {
    return Array.from({ length: width }, (_, i) => ({
      name: toolName(`worker-${i}`),
      arguments: { task: `Do part ${i} (bench-wide-${tagOf(body, 'bench-wide')}).` },
    }));
  }
  return undefined;
}

/** The models of the wide tree answer after `modelDelayMs`; the others at once. */
const delayOf = (body) => (body.model === 'supervisor' || body.model === 'worker' ? modelDelayMs : 0);

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** POSTs a run with `Prefer: wait`; resolves with the run, when the request was sent and when its answer was read. */
function postRun(url, agentId, task, wait) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify({ task });
    const request = http.request(`${url}/v1/agents/${agentId}/run`, {
      method: 'POST',
      agent: keepAlive,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        prefer: `wait=${wait}`,
      },
    });
    let sent;
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        const ended = performance.now();
        const run = JSON.parse(text);
        if (response.statusCode !== 200 || run.status !== 'succeeded') {
          return reject(new Error(`${task}: HTTP ${response.statusCode}, run ${run.status} ${JSON.stringify(run)}`));
        }
        resolve({ run, sent, ended });
      });
    });
    request.on('error', reject);
    sent = performance.now();
    request.end(payload);
  });
}

/** The one request in `entries` of `model` (with a tool result or not) whose messages hold `prefix-n`. */
function requestOf(entries, model, prefix, n, withResult) {
  const found = entries.filter(
    (e) => e.body.model === model && hasToolResult(e.body) === withResult && tagOf(e.body, prefix) === n,
  );
  if (found.length !== 1 || found[0].written === undefined) {
    throw new Error(`expected one answered ${model} request for ${prefix}-${n}, saw ${found.length}`);
  }
  return found[0];
}

/** A tree of `parent` over `child`: the child run's start and end (ms). */
async function timedTree(server, agents, model, n) {
  const from = model.log.length;
  const { run } = await postRun(server.url, agents.parent, `Delegate (bench-tree-${n}).`, 30);
  if (run.output !== 'Bench answer.' || run.children?.[0]?.status !== 'succeeded') {
    throw new Error(`tree ${n}: ${JSON.stringify(run)}`);
  }
  const entries = model.log.slice(from);
  const first = requestOf(entries, 'parent', 'bench-tree', n, false);
  const child = requestOf(entries, 'child', 'bench-child', n, false);
  const next = requestOf(entries, 'parent', 'bench-tree', n, true);
  return { start: child.arrived - first.written, end: next.arrived - child.written };
}

/** A direct run of `child`: its start and end (ms). */
async function timedDirect(server, agents, model, n) {
  const from = model.log.length;
  const { sent, ended } = await postRun(server.url, agents.child, `Answer briefly (bench-child-${n}).`, 30);
  const child = requestOf(model.log.slice(from), 'child', 'bench-child', n, false);
  return { start: child.arrived - sent, end: ended - child.written };
}

/** `count` trees and direct runs, taking turns one for one (direct runs tagged from 1,000,000 up). */
async function overheadSamples(server, agents, model, count, offset) {
  const tree = [];
  const direct = [];
  for (let i = 0; i < count; i++) {
    tree.push(await timedTree(server, agents, model, offset + i));
    direct.push(await timedDirect(server, agents, model, 1_000_000 + offset + i));
  }
  model.log.splice(0);
  return { tree, direct };
}

/** Median and p95 of a list of ms. */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const ms = (value) => `${value.toFixed(2)} ms`;

function reportOverhead({ tree, direct }) {
  const total = (samples) => samples.map((s) => s.start + s.end);
  const line = (label, values) => {
    const { median, p95 } = spread(values);
    return `    ${label.padEnd(28)} median ${ms(median).padStart(9)}, p95 ${ms(p95).padStart(9)}`;
  };
  console.log(`1. child-run overhead: ${tree.length} trees and ${direct.length} direct runs, taking turns`);
  console.log('  started directly (POST -> model request; model answer -> run ended read):');
  console.log(
    line(
      'start',
      direct.map((s) => s.start),
    ),
  );
  console.log(
    line(
      'end',
      direct.map((s) => s.end),
    ),
  );
  console.log(line('start + end', total(direct)));
  console.log('  started as a child (tool call written -> child model request; child answer -> parent request):');
  console.log(
    line(
      'start',
      tree.map((s) => s.start),
    ),
  );
  console.log(
    line(
      'end',
      tree.map((s) => s.end),
    ),
  );
  console.log(line('start + end', total(tree)));
  const overhead = spread(total(tree)).median - spread(total(direct)).median;
  const paired = spread(tree.map((s, i) => s.start + s.end - (direct[i].start + direct[i].end)));
  console.log(
    `  overhead (median child - median direct): ${ms(overhead)} (goal < 5 ms: ${overhead < 5 ? 'met' : 'MISSED'}); ` +
      `per pair: median ${ms(paired.median)}, p95 ${ms(paired.p95)}`,
  );
  return overhead;
}

/** One wide tree: its makespan (s), the most model requests open at once, and the gaps around the children. */
async function wideTree(server, agents, model, n) {
  while (model.open > 0) await sleep(10);
  model.resetMaxOpen();
  const from = model.log.length;
  const started = performance.now();
  const { run, ended } = await postRun(server.url, agents.supervisor, `Share out the work (bench-wide-${n}).`, 60);
  const makespan = (ended - started) / 1000;
  const ok = run.children?.filter((child) => child.status === 'succeeded').length;
  if (ok !== width) throw new Error(`wide tree ${n}: ${ok} of ${width} children succeeded`);
  const entries = model.log.slice(from);
  const workers = entries.filter((e) => e.body.model === 'worker');
  const first = requestOf(entries, 'supervisor', 'bench-wide', n, false);
  const last = requestOf(entries, 'supervisor', 'bench-wide', n, true);
  const arrivals = workers.map((e) => e.arrived).sort((a, b) => a - b);
  const writes = workers.map((e) => e.written).sort((a, b) => a - b);
  return {
    makespan,
    maxOpen: model.maxOpen,
    maxOpenWorkers: Math.max(...workers.map((e) => e.open)),
    // The supervisor's calls were alone: its first answered before any child asked, its last came after all.
    parentApart: first.written <= arrivals[0] && last.arrived >= writes.at(-1) && last.open === 1,
    toFirstChild: arrivals[0] - first.written,
    afterLastChild: last.arrived - writes.at(-1),
    // A slot's hand-off: the i-th child's request after the (i - 10)-th answer written (slots free in that order).
    handOff: spread(arrivals.slice(CONCURRENCY).map((at, i) => at - writes[i])),
    waves: waves(arrivals),
  };
}

/** How many groups the arrivals come in (a gap of over half the model's delay starts a new one). */
function waves(arrivals) {
  return arrivals.filter((at, i) => i === 0 || at - arrivals[i - 1] > modelDelayMs / 2).length;
}

function reportWide(results) {
  const ideal = (2 + Math.ceil(width / CONCURRENCY)) * (modelDelayMs / 1000);
  const mean = results.reduce((sum, r) => sum + r.makespan, 0) / results.length;
  console.log(
    `2. wide tree: 1 supervisor calling ${width} agents in one answer, RUN_CONCURRENCY=${CONCURRENCY}, ` +
      `every model call ${modelDelayMs} ms, ${results.length} repetitions`,
  );
  for (const [i, r] of results.entries()) {
    console.log(
      `    #${i + 1}: makespan ${r.makespan.toFixed(3)} s, max open model requests ${r.maxOpen} (children ${r.maxOpenWorkers}), ` +
        `children in ${r.waves} waves, supervisor call -> first child ${ms(r.toFirstChild)}, ` +
        `last child -> supervisor ${ms(r.afterLastChild)}, slot hand-off median ${ms(r.handOff.median)} ` +
        `(p95 ${ms(r.handOff.p95)}), supervisor alone: ${r.parentApart}`,
    );
  }
  const ratio = ideal / mean;
  const maxOpen = Math.max(...results.map((r) => r.maxOpen));
  const apart = results.every((r) => r.parentApart);
  console.log(
    `  ideal ${ideal.toFixed(1)} s / mean makespan ${mean.toFixed(3)} s = ${ratio.toFixed(3)} ` +
      `(goal >= 0.9: ${ratio >= 0.9 ? 'met' : 'MISSED'}); max open model requests ${maxOpen} ` +
      `(goal <= ${CONCURRENCY}, none for the waiting parent: ${maxOpen <= CONCURRENCY && apart ? 'met' : 'MISSED'})`,
  );
}

/** The agents of both parts: child, parent, the workers and their supervisor. */
async function createAgents(url) {
  const create = (body) => postJson(url, '/v1/agents', { instructions: 'Answer briefly.', ...body });
  const child = await create({ name: 'child', model: 'openai-compatible/child', description: 'Answers.' });
  const parent = await create({ name: 'parent', model: 'openai-compatible/parent', tools: ['agent:child'] });
  const names = Array.from({ length: width }, (_, i) => `worker-${i}`);
  for (const name of names) await create({ name, model: 'openai-compatible/worker', description: `Does ${name}.` });
  const tools = names.map((name) => `agent:${name}`);
  const supervisor = await create({ name: 'supervisor', model: 'openai-compatible/supervisor', tools, maxSteps: 4 });
  return { child: child.id, parent: parent.id, supervisor: supervisor.id };
}

async function main() {
  const model = await startScriptedModel({ toolCalls, delayMs: delayOf, log: true });
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-agent-tree-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_CONCURRENCY: String(CONCURRENCY),
    MODEL_MAX_RETRIES: '0',
  });
  try {
    const agents = await createAgents(server.url);
    console.log(`service on sqlite, RUN_CONCURRENCY=${CONCURRENCY}; ${loadAverage()}`);
    await overheadSamples(server, agents, model, warmup, 0);
    const overhead = reportOverhead(await overheadSamples(server, agents, model, trees, warmup));
    const wide = [];
    for (let i = 0; i < repetitions; i++) wide.push(await wideTree(server, agents, model, i));
    if (wide.length) reportWide(wide);
    console.log(`model requests: ${model.requests}; ${loadAverage()}`);
    if (overhead >= 5) console.log('  the child-run overhead missed its goal: profile with BENCH_NODE_ARGS=--cpu-prof');
  } finally {
    keepAlive.destroy();
    await server.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
