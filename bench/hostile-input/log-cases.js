'use strict';
// The event log's cases (findings 1 and 2 of issue 32): streams and pages over a log of large events.
const { call, drainStream } = require('./http');

/**
 * About 1 MiB of JSON under both body limits: 24,000 strings of 40 characters (a body holds at most 25,000 values,
 * JSON_MAX_VALUES), so each event is as large and holds nearly as many values as a request may.
 */
function bigContext() {
  return { items: Array.from({ length: 24_000 }, (_, i) => `${i}`.padStart(40, 'x')) };
}

/** A log of `runs` runs whose requests each hold about 1 MiB (the issue's 182 events of about 1 MiB). */
async function seedLargeLog({ url, write }, runs) {
  const agent = await call(url, 'POST', '/v1/agents', write, { name: 'big', model: 'openai/gpt-4o-mini' });
  const body = JSON.stringify({ task: 'hold this', context: bigContext() });
  for (let i = 0; i < runs; i++) await call(url, 'POST', `/v1/agents/${agent.body.id}/run`, write, body);
  return { agentId: agent.body.id };
}

/** `count` streams from the start of the log, side by side, each read for `ms`: bytes and statuses. */
async function streams(url, headers, count, ms, localAddress) {
  const opened = await Promise.all(
    Array.from({ length: count }, () => drainStream(url, '/v1/events', headers, ms, localAddress)),
  );
  const statuses = {};
  for (const { status } of opened) statuses[status] = (statuses[status] ?? 0) + 1;
  const mb = opened.reduce((sum, { bytes }) => sum + bytes, 0) / 2 ** 20;
  return `${count} streams: statuses ${JSON.stringify(statuses)}, ${mb.toFixed(0)} MB received`;
}

const CASES = {
  /** Finding 1: 20 SSE streams from one read key over a log of 182 events of about 1 MiB. */
  'sse-read-key': {
    prepare: (context) => seedLargeLog(context, 182),
    run: ({ url, read }) => streams(url, read, 20, 15_000),
  },
  /** Finding 1: three client addresses without keys, 20 streams each (the per-client cap does not bound the total). */
  'sse-three-addresses': {
    env: { API_KEYS: '', API_READ_KEYS: '' },
    prepare: ({ url }) => seedLargeLog({ url, write: {} }, 93),
    run: async ({ url }) => {
      const lines = await Promise.all(
        ['127.0.0.1', '127.0.0.2', '127.0.0.3'].map((address) => streams(url, {}, 20, 15_000, address)),
      );
      return lines.join('; ');
    },
  },
  /** Finding 2: four pages of 200 events at once over the same log. */
  'events-page-200': {
    prepare: (context) => seedLargeLog(context, 182),
    run: async ({ url, read }) => {
      // The answers are counted, not parsed: the client shares the machine with the service it measures.
      const sizes = await Promise.all(
        Array.from({ length: 4 }, () =>
          fetch(`${url}/v1/events?limit=200`, { headers: read }).then((response) => response.arrayBuffer()),
        ),
      );
      return `4 pages: ${sizes.map((body) => `${(body.byteLength / 2 ** 20).toFixed(1)} MB`).join(', ')}`;
    },
  },
};

module.exports = { CASES };
