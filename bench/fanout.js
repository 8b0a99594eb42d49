'use strict';
// POST /v1/agents throughput with SSE subscribers of GET /v1/events connected, as a ratio to the same server with
// none, in one run: each round measures without subscribers, then with them (half of them filtered by type
// AgentCreated, all from the head: ?from=end). While they are connected, a probe POSTs an agent every 50 ms and
// notes when the answer came; the latency of a probe is from that answer to the moment the last subscriber had
// received its AgentCreated event. Afterwards every subscriber's count of messages is checked against the log.
// Goals (issue 18): throughput >= 0.9 x the run without subscribers, p99 latency < 200 ms, no message missing.
// Usage: npm run build:bench && node bench/fanout.js [subscribers=1000] [seconds=5] [rounds=2] [connections=10]
// BENCH_SERVICE_MAIN=path/to/main.js measures another build (as bench/scheduler.js does).
// The subscribers are read on a worker thread of this process with plain sockets (no SSE parser: messages are
// counted by their `id:` lines), apart from autocannon's event loop; they share the machine's cores with the
// service, as they would on a 2-core machine. Times are absolute (timeOrigin + now) across the two threads.
const autocannon = require('autocannon');
const { connect } = require('node:net');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { join } = require('node:path');
const {
  startServer,
  temporaryDir,
  createAgentRequests,
  positional,
  postJson,
  loadAverage,
  cpuSecondsOf,
} = require('./lib');

const [subscriberCount = 1000, seconds = 5, rounds = 2, connections = 10] = positional().map(Number);
const ID_LINE = Buffer.from('\nid: ');
const MESSAGE_END = Buffer.from('\n\n');

const now = () => performance.timeOrigin + performance.now();

/** A subscriber on a bare socket: counts messages, keeps (time, highest position) after each chunk. */
function subscribe(url, query) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const subscriber = { count: 0, maxPosition: 0, samples: [], status: 0, socket, carry: Buffer.alloc(0) };
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
      socket.on('data', (data) => receive(subscriber, data));
      resolve(subscriber);
    });
  });
}

function receive(subscriber, data) {
  const buffer = subscriber.carry.length ? Buffer.concat([subscriber.carry, data]) : data;
  const end = buffer.lastIndexOf(MESSAGE_END);
  if (end < 0) {
    subscriber.carry = buffer;
    return;
  }
  // The carry keeps the message's separator's last newline, so that its `id:` line is found after one.
  subscriber.carry = buffer.subarray(end + 1);
  let last = -1;
  for (let at = buffer.indexOf(ID_LINE); at >= 0 && at < end; at = buffer.indexOf(ID_LINE, at + 5)) {
    subscriber.count++;
    last = at;
  }
  if (last < 0) return;
  const position = Number(buffer.toString('latin1', last + 5, buffer.indexOf(10, last + 5)));
  if (position > subscriber.maxPosition) {
    subscriber.maxPosition = position;
    subscriber.samples.push([now(), position]);
  }
}

/** When `subscriber` first had `position` (or undefined). */
function receivedAt(subscriber, position) {
  const { samples } = subscriber;
  let low = 0;
  let high = samples.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (samples[mid][1] >= position) high = mid;
    else low = mid + 1;
  }
  return samples[low]?.[0];
}

async function getJson(url, path) {
  const response = await fetch(url + path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
}

async function load(url, label, pid) {
  const cpuBefore = cpuSecondsOf(pid);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: createAgentRequests(label),
  });
  const cpu = cpuSecondsOf(pid) - cpuBefore;
  return { rate: result.requests.average, perCpuSecond: result.requests.total / cpu, cpuShare: cpu / seconds };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const server = await startServer(process.env.BENCH_SERVICE_MAIN || join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-fanout-'),
    RUN_EXECUTOR_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
    SSE_MAX_STREAMS_PER_KEY: String(subscriberCount + 10),
  });
  const { url } = server;
  await autocannon({ url, connections, duration: 2, requests: createAgentRequests('warmup') });
  const results = [];
  const latencies = [];
  let missing = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const without = await load(url, `without-${round}`, server.pid);
      const readers = new SubscriberThread(url, subscriberCount);
      await readers.ready;
      const startHead = Number((await getJson(url, '/v1/events?from=end')).nextAfter ?? 0);
      const probes = [];
      let probing = true;
      const probe = (async () => {
        for (let n = 0; probing; n++) {
          const agent = await postJson(url, '/v1/agents', { name: `probe-${round}-${n}`, model: 'openai/gpt-4o-mini' });
          probes.push({ id: agent.id, answeredAt: now() });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const withSubscribers = await load(url, `with-${round}`, server.pid);
      probing = false;
      await probe;
      // A request autocannon cut off when its time was up may still be written: let it land before the head is read.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const endHead = Number((await getJson(url, '/v1/events?from=end')).nextAfter);
      // Wait until every subscriber has the last event (or 30 s).
      const lastCreated = (await getJson(url, '/v1/events?types=AgentCreated&order=desc&limit=1')).events[0];
      const subscribers = await readers.finish(endHead, Number(lastCreated.position));
      // Every matching event, once: all events since the head (each POST writes a name claim and an agent), or
      // the AgentCreated among them.
      const created = (endHead - startHead) / 2;
      let firstWrong;
      subscribers.forEach((subscriber, i) => {
        const expected = i % 2 ? created : endHead - startHead;
        if (subscriber.count === expected) return;
        missing++;
        firstWrong ??= {
          subscriber: i,
          count: subscriber.count,
          expected,
          highestPosition: subscriber.maxPosition,
          endHead,
        };
      });
      if (firstWrong) console.log(`round ${round}: a subscriber with a wrong count:`, firstWrong);
      for (const { id, answeredAt } of probes) {
        const [event] = (await getJson(url, `/v1/events?stream=agent-${id}&limit=1`)).events;
        const times = subscribers.map((subscriber) => receivedAt(subscriber, Number(event.position)));
        if (times.some((time) => time === undefined)) continue;
        latencies.push(Math.max(0, Math.max(...times) - answeredAt));
      }
      results.push({
        round,
        without: without.rate,
        with: withSubscribers.rate,
        ratio: withSubscribers.rate / without.rate,
        // The service's own cost: requests per CPU second it used, and the share of a core it got.
        perCpuSecondWithout: Math.round(without.perCpuSecond),
        perCpuSecondWith: Math.round(withSubscribers.perCpuSecond),
        coreShareWithout: +without.cpuShare.toFixed(2),
        coreShareWith: +withSubscribers.cpuShare.toFixed(2),
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await server.stop();
  }
  console.table(results.map((r) => ({ ...r, ratio: +r.ratio.toFixed(2) })));
  const ratios = results.map((r) => r.ratio).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)];
  console.log(
    `${subscriberCount} subscribers (half filtered by type): throughput ratio ${median.toFixed(2)} (goal >= 0.9); ` +
      `answer-to-all-received p50 ${percentile(latencies, 50)?.toFixed(0)} ms, p99 ${percentile(latencies, 99)?.toFixed(0)} ms ` +
      `over ${latencies.length} probes (goal < 200); subscribers with a wrong count: ${missing}; ${loadAverage()}`,
  );
}

/** The subscribers, on a worker thread: `ready` once all are connected; `finish` once all have caught up (or 30 s). */
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

async function subscriberThread() {
  const { url, count } = workerData;
  const subscribers = [];
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, k) =>
      subscribe(url, (i + k) % 2 ? 'from=end&types=AgentCreated' : 'from=end'),
    );
    subscribers.push(...(await Promise.all(batch)));
  }
  parentPort.postMessage({ refused: subscribers.some((subscriber) => subscriber.status !== 200) });
  parentPort.once('message', async ({ endHead, lastCreated }) => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const behind = subscribers.filter((subscriber, i) =>
        i % 2 ? subscriber.maxPosition < lastCreated : subscriber.maxPosition < endHead,
      );
      if (behind.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const subscriber of subscribers) subscriber.socket.destroy();
    parentPort.postMessage(subscribers.map(({ count, maxPosition, samples }) => ({ count, maxPosition, samples })));
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
