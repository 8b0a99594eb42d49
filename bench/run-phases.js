'use strict';
// Where the time of a burst of runs goes, for bench/runs-in-flight.js: from the runs' own times (createdAt,
// startedAt, endedAt) and the scripted model's log of its requests (`log: true`), matched by the `bench-run-<n>`
// tag in each task. A slot that starts its first run late ends its last run late by as much, so the first wave's
// start and each run's time outside its model call are what ideal ÷ actual loses.
const { performance } = require('node:perf_hooks');

const TAG = /bench-run-\d+/;

/** p50 and p99 of `values` (ms), as text. */
function medianAndP99(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return `median ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms`;
}

/**
 * The phases of the runs, as lines to print. `runs`: the runs read back from the service; `log`: the model's
 * requests; `started`: the first POST (epoch ms); `concurrency`: RUN_CONCURRENCY.
 */
function runPhases({ runs, log, started, concurrency }) {
  const requests = new Map();
  for (const entry of log) {
    const tag = TAG.exec(JSON.stringify(entry.body))?.[0];
    // The model's times are performance.now() of the bench process: on the epoch, as the runs' times are.
    if (tag)
      requests.set(tag, {
        arrived: performance.timeOrigin + entry.arrived,
        written: performance.timeOrigin + entry.written,
      });
  }
  const phases = [];
  for (const run of runs) {
    const request = requests.get(TAG.exec(run.task)?.[0]);
    if (!request) continue;
    const [created, start, end] = [run.createdAt, run.startedAt, run.endedAt].map(Date.parse);
    phases.push({ created, start, end, ...request });
  }
  if (phases.length <= concurrency) return [];
  const since = (times) => times.map((time) => time - started).sort((a, b) => a - b);
  const firstWave = (key) => since(phases.map((phase) => phase[key]))[concurrency - 1].toFixed(0);
  const starts = since(phases.map((phase) => phase.start));
  const ends = since(phases.map((phase) => phase.end));
  // The k-th run started after the first wave took the slot the k-th run to end had freed.
  const handOffs = starts.slice(concurrency).map((start, k) => start - ends[k]);
  return [
    `first wave: the ${concurrency}th run POSTed ${firstWave('created')} ms after the first POST, started ` +
      `${firstWave('start')} ms, its model request arrived ${firstWave('arrived')} ms`,
    `a run outside its model call: started → model request arrived ` +
      `${medianAndP99(phases.map((phase) => phase.arrived - phase.start))}; model answered → run ended ` +
      `${medianAndP99(phases.map((phase) => phase.end - phase.written))}; a freed slot → its next run started ` +
      `${medianAndP99(handOffs)}`,
  ];
}

module.exports = { runPhases };
