'use strict';
// Runs that end together, streamed or not: bench/runs-in-flight.js (500 runs of a 1 s model at RUN_CONCURRENCY=100)
// in rounds, each round once with RUN_STREAMING=always (every model call streamed: the default, and the baseline)
// and once with RUN_STREAMING=watched (no one follows these runs: each call is one request and one answer), the two
// taking turns so that a noisy phase of the machine falls on both. Prints each run's figures, then per setting the
// ideal ÷ actual makespan, the service's CPU per run (main thread and all threads), the longest event-loop stall
// and the peak RSS, with the load average.
// Usage: npm run build:bench && node bench/run-streaming.js [rounds=3] [runs=500] [concurrency=100] [modelDelayMs=1000]
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { loadAverage: load } = require('./lib');

const [rounds = 3, ...rest] = process.argv.slice(2).map(Number);
const settings = ['always', 'watched'];

/** The figures of one runs-in-flight output. */
function figures(output) {
  const number = (pattern) => Number(output.match(pattern)?.[1] ?? NaN);
  return {
    ratio: number(/ideal ÷ actual ([\d.]+)/),
    mainCpuMs: number(/([\d.]+) ms on the main thread/),
    allCpuMs: number(/([\d.]+) ms in all threads/),
    stallMs: number(/longest event-loop stall in the service during the runs: ([\d.]+) ms/),
    peakRssMb: number(/\(peak ([\d.]+) MB\)/),
    succeeded: number(/"succeeded":(\d+)/),
  };
}

const results = Object.fromEntries(settings.map((setting) => [setting, []]));
console.log(`${rounds} rounds of ${settings.join(' and ')} (${load()})`);
for (let round = 1; round <= rounds; round++) {
  for (const setting of round % 2 ? settings : [...settings].reverse()) {
    const output = execFileSync(process.execPath, [join(__dirname, 'runs-in-flight.js'), ...rest.map(String)], {
      env: { ...process.env, RUN_STREAMING: setting },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const found = figures(output);
    results[setting].push(found);
    console.log(`round ${round}, RUN_STREAMING=${setting}: ${JSON.stringify(found)}`);
  }
}
const range = (list, key, digits) =>
  `${Math.min(...list.map((r) => r[key])).toFixed(digits)}–${Math.max(...list.map((r) => r[key])).toFixed(digits)}`;
for (const setting of settings) {
  const list = results[setting];
  console.log(
    `RUN_STREAMING=${setting}: ideal ÷ actual ${range(list, 'ratio', 2)} (goal >= 0.92), CPU per run ` +
      `${range(list, 'mainCpuMs', 2)} ms main thread, ${range(list, 'allCpuMs', 2)} ms all threads, longest stall ` +
      `${range(list, 'stallMs', 0)} ms (goal < 50 ms), peak RSS ${range(list, 'peakRssMb', 0)} MB`,
  );
}
console.log(load());
