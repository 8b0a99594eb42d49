'use strict';
// What 1,000 SSE subscribers of GET /v1/events cost the service itself (issue 40, section 1). The service is pinned
// to one core (taskset -c 0) and this process, with its subscribers, to the other, so that the subscribers' own
// reading does not take the service's CPU. Each round, after a warm-up, sends POST /v1/agents at a fixed rate (an
// open loop: a request every 1/rate s, whatever the answers) for a number of seconds, first with no subscriber,
// then with them all connected (half filtered by type AgentCreated, all from the head), and reads the service's
// CPU time (user + system, all its threads) from /proc/<pid>/stat around each: CPU per POST with them ÷ without.
// Most subscribers only drain their socket and count the messages by their `id:` lines; 50 of them parse every
// message and note when each AgentCreated came. A last phase at a lower rate (50 POST/s), a second later, times
// each POST from its answer to the moment the last of those 50 had it. Every subscriber's count is checked against
// the log.
// Goals: CPU ratio <= 1.1 (moonshot 1.05); p99 answer-to-receipt at 50 POST/s < 100 ms; no message missed.
// Usage: npm run build:bench && node bench/fanout.js [subscribers=1000] [rate=300] [seconds=10] [rounds=3]
// BENCH_SERVICE_MAIN=path/to/main.js measures another build.
const { execFileSync } = require('node:child_process');
const { connect } = require('node:net');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { join } = require('node:path');
const { Agent, request } = require('undici');
const { startServer, temporaryDir, positional, loadAverage, cpuSecondsOf } = require('./lib');

const [subscriberCount = 1000, rate = 300, seconds = 10, rounds = 3] = positional().map(Number);
const TIMED = 50;
const LATENCY_RATE = 50;
const ID_LINE = Buffer.from('\nid: ');
const MESSAGE_END = Buffer.from('\n\n');
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pins every thread of a process to one core (threads made later inherit it). */
function pin(pid, core) {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

/**
 * POST /v1/agents at `perSecond` for `forSeconds`, each request sent on time whether or not the earlier ones have
 * answered; resolves once every answer is in, with each agent's id and when its answer came.
 */
async function openLoop(url, dispatcher, label, perSecond, forSeconds) {
  const total = Math.round(perSecond * forSeconds);
  const interval = 1000 / perSecond;
  const started = performance.now();
  const answers = [];
  let failed = 0;
  for (let n = 0; n < total; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    answers.push(
      request(`${url}/v1/agents`, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${label}-${n}`, model: 'openai/gpt-4o-mini', tools: ['current_time'] }),
      }).then(async (response) => {
        const body = await response.body.json();
        if (response.statusCode !== 201) failed++;
        return { id: body.id, answeredAt: now() };
      }),
    );
  }
  const settled = await Promise.all(answers);
  if (failed) throw new Error(`${failed} of ${total} POSTs failed`);
  return { answers: settled, lateMs: performance.now() - started - forSeconds * 1000 };
}

/** The service's CPU seconds per POST over an open-loop phase. */
async function cpuPerPost(server, dispatcher, label) {
  const before = cpuSecondsOf(server.pid);
  const { answers, lateMs } = await openLoop(server.url, dispatcher, label, rate, seconds);
  const cpu = cpuSecondsOf(server.pid) - before;
  return { msPerPost: (cpu * 1000) / answers.length, coreShare: cpu / seconds, lateMs, answers };
}

async function getJson(url, path) {
  const response = await fetch(url + path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  pin(process.pid, 1);
  const server = await startServer(process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-fanout-'),
    RUN_EXECUTOR_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
    SSE_MAX_STREAMS_PER_KEY: String(subscriberCount + 10),
  });
  pin(server.pid, 0);
  const dispatcher = new Agent({ connections: 64, pipelining: 1 });
  const results = [];
  let missed = 0;
  let latencies = [];
  try {
    await openLoop(server.url, dispatcher, 'warmup', rate, 3);
    for (let round = 0; round < rounds; round++) {
      const without = await cpuPerPost(server, dispatcher, `without-${round}`);
      const readers = new SubscriberThread(server.url, subscriberCount);
      await readers.ready;
      await sleep(1000);
      const startHead = BigInt((await getJson(server.url, '/v1/events?from=end')).nextAfter ?? 0);
      const withThem = await cpuPerPost(server, dispatcher, `with-${round}`);
      const last = round === rounds - 1;
      // A second apart, so that the phase at 50 POST/s times that rate, not the switch from the one before.
      if (last) await sleep(1000);
      const timed = last ? await openLoop(server.url, dispatcher, `timed-${round}`, LATENCY_RATE, seconds) : undefined;
      const endHead = BigInt((await getJson(server.url, '/v1/events?from=end')).nextAfter);
      const lastCreated = (await getJson(server.url, '/v1/events?types=AgentCreated&order=desc&limit=1')).events[0];
      const subscribers = await readers.finish(String(endHead), lastCreated.position);
      // Each POST writes two events (the name's claim and the agent); the filtered half gets the AgentCreated.
      const events = Number(endHead - startHead);
      const wrong = subscribers.filter((s, i) => s.count !== (i % 2 ? events / 2 : events));
      missed += wrong.length;
      if (wrong.length) console.log(`round ${round}: ${wrong.length} subscribers with a wrong count, e.g.`, wrong[0]);
      if (timed) {
        latencies = timed.answers.map(({ id, answeredAt }) => {
          const times = subscribers.slice(0, TIMED).map((s) => s.received[`agent-${id}`]);
          return times.some((time) => time === undefined) ? Infinity : Math.max(0, Math.max(...times) - answeredAt);
        });
      }
      results.push({
        round,
        'CPU ms/POST without': +without.msPerPost.toFixed(3),
        'CPU ms/POST with': +withThem.msPerPost.toFixed(3),
        ratio: +(withThem.msPerPost / without.msPerPost).toFixed(3),
        'core share without': +without.coreShare.toFixed(2),
        'core share with': +withThem.coreShare.toFixed(2),
        'sending late ms (without, with)': `${without.lateMs.toFixed(0)}, ${withThem.lateMs.toFixed(0)}`,
      });
      await sleep(500);
    }
  } finally {
    await dispatcher.close();
    await server.stop();
  }
  console.table(results);
  const ratios = results.map((r) => r.ratio).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)];
  console.log(
    `${subscriberCount} subscribers at ${rate} POST/s: service CPU per POST with ÷ without, median ${median.toFixed(3)} ` +
      `(rounds ${results.map((r) => r.ratio).join(', ')}; goal <= 1.1, moonshot 1.05); ` +
      `at ${LATENCY_RATE} POST/s answer-to-receipt by all ${TIMED} timed subscribers p50 ${percentile(latencies, 50)?.toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99)?.toFixed(1)} ms over ${latencies.length} POSTs (goal < 100); ` +
      `subscribers with a wrong count: ${missed}; ${loadAverage()}`,
  );
}

/** The subscribers, on a worker thread: `ready` once all are connected; `finish` once all have the last (or 30 s). */
class SubscriberThread {
  constructor(url, count) {
    this.worker = new Worker(__filename, { workerData: { url, count } });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (message) =>
        message.refused ? reject(new Error('a subscriber was refused')) : resolve(),
      );
      this.worker.once('error', reject);
    });
  }

  finish(endHead, lastCreated) {
    return new Promise((resolve, reject) => {
      this.worker.once('message', (subscribers) => {
        void this.worker.terminate();
        resolve(subscribers);
      });
      this.worker.once('error', reject);
      this.worker.postMessage({ endHead, lastCreated });
    });
  }
}

/** A subscriber on a bare socket. A counting one counts `id:` lines; a timed one parses every message. */
function subscribe(url, query, timed) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const subscriber = {
      count: 0,
      highest: 0n,
      received: timed ? {} : undefined,
      status: 0,
      socket,
      carry: timed ? '' : Buffer.from('\n'),
    };
    let head = '';
    socket.on('error', reject);
    socket.on('connect', () =>
      socket.write(`GET /v1/events?${query} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.on('data', function onHead(chunk) {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      subscriber.status = Number(head.slice(9, 12));
      socket.off('data', onHead);
      socket.on('data', timed ? (data) => parse(subscriber, data) : (data) => count(subscriber, data));
      resolve(subscriber);
    });
  });
}

/**
 * Counts the messages of a chunk by their `id:` lines, and keeps the highest position. What follows the chunk's last
 * whole message is carried to the next one, from that message's last newline, so that an `id:` line is always
 * found whole after a newline.
 */
function count(subscriber, data) {
  const buffer = subscriber.carry.length ? Buffer.concat([subscriber.carry, data]) : data;
  const end = buffer.lastIndexOf(MESSAGE_END);
  if (end < 0) {
    subscriber.carry = buffer;
    return;
  }
  subscriber.carry = buffer.subarray(end + 1);
  let last = -1;
  for (let at = buffer.indexOf(ID_LINE); at >= 0 && at < end; at = buffer.indexOf(ID_LINE, at + 5)) {
    subscriber.count++;
    last = at;
  }
  if (last < 0) return;
  const position = BigInt(buffer.toString('latin1', last + 5, buffer.indexOf(10, last + 5)));
  if (position > subscriber.highest) subscriber.highest = position;
}

/** Parses each whole message: its position, and when an AgentCreated (by stream) came. */
function parse(subscriber, data) {
  const text = subscriber.carry + data.toString('utf8');
  const messages = text.split('\n\n');
  subscriber.carry = messages.pop();
  const at = now();
  for (const message of messages) {
    let id;
    let json;
    for (const line of message.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) json = line.slice(6);
    }
    if (id === undefined) continue;
    subscriber.count++;
    if (BigInt(id) > subscriber.highest) subscriber.highest = BigInt(id);
    const event = JSON.parse(json);
    if (event.type === 'AgentCreated') subscriber.received[event.stream] = at;
  }
}

async function subscriberThread() {
  const { url, count: total } = workerData;
  const subscribers = [];
  for (let i = 0; i < total; i += 50) {
    const batch = Array.from({ length: Math.min(50, total - i) }, (_, k) =>
      subscribe(url, (i + k) % 2 ? 'from=end&types=AgentCreated' : 'from=end', i + k < TIMED),
    );
    subscribers.push(...(await Promise.all(batch)));
  }
  parentPort.postMessage({ refused: subscribers.some((subscriber) => subscriber.status !== 200) });
  parentPort.once('message', async ({ endHead, lastCreated }) => {
    const head = BigInt(endHead);
    const created = BigInt(lastCreated);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && subscribers.some((s, i) => s.highest < (i % 2 ? created : head))) await sleep(100);
    for (const subscriber of subscribers) subscriber.socket.destroy();
    parentPort.postMessage(
      subscribers.map(({ count: received, highest, received: times }) => ({
        count: received,
        highest: String(highest),
        received: times,
      })),
    );
  });
}

if (isMainThread) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  void subscriberThread();
}
