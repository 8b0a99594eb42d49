'use strict';
// Hostile input, case by case (issue 32): each case runs against a fresh service (the embedded store, API keys on,
// a timer probe preloaded: bench/stall-probe.js) and prints the longest event-loop stall while it ran, the peak RSS
// (sampled every 20 ms), and whether `/health/live` answered throughout (polled every 50 ms; its slowest answer).
// Goals: no case stalls the loop over 50 ms (moonshot 20 ms), none raises RSS over 500 MB, /health/live answers.
// Usage: npm run build:bench && node bench/hostile-input.js [case …] [--main=PATH]   (no names: every case;
//   --main: the service's build to run, by default dist/main.js, e.g. a copy of the build before a change)
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { startServer, temporaryDir, loadAverage, settled } = require('./lib');
const { CASES } = require('./hostile-input/cases');
const { readStall } = require('./hostile-input/probe');

const MAIN =
  process.argv.find((arg) => arg.startsWith('--main='))?.slice('--main='.length) ??
  join(__dirname, '..', 'dist', 'main.js');
const STALL_GOAL_MS = 50;
const RSS_GOAL_MB = 500;

/** RSS of a process in MB (Linux). */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** Samples RSS and polls /health/live until stopped: the peak RSS, the slowest answer and any missed one. */
function watch(server) {
  let peakRssMb = 0;
  let slowestLiveMs = 0;
  let missed = 0;
  let stopped = false;
  const sampler = setInterval(() => {
    try {
      peakRssMb = Math.max(peakRssMb, rssOf(server.pid));
    } catch {
      // The process is gone: the case reports it as exited.
    }
  }, 20);
  const polling = (async () => {
    while (!stopped) {
      const started = performance.now();
      const ok = await fetch(`${server.url}/health/live`, { signal: AbortSignal.timeout(5000) })
        .then((response) => response.ok)
        .catch(() => false);
      if (!ok) missed++;
      slowestLiveMs = Math.max(slowestLiveMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    stopped = true;
    clearInterval(sampler);
    await polling;
    return { peakRssMb, slowestLiveMs, missed };
  };
}

async function runCase(name, hostileCase) {
  try {
    const env = typeof hostileCase.env === 'function' ? await hostileCase.env() : hostileCase.env;
    return await measureCase(name, hostileCase, env);
  } finally {
    await hostileCase.close?.();
  }
}

async function measureCase(name, hostileCase, env) {
  const dir = temporaryDir(`bench-hostile-${name}-`);
  const stallFile = join(dir, 'stall.json');
  const server = await startServer(
    MAIN,
    {
      DATA_DIR: dir,
      API_KEYS: 'bench-write-key-0123456789',
      API_READ_KEYS: 'bench-read-key-0123456789',
      STALL_PROBE_FILE: stallFile,
      ...env,
    },
    '/health/ready',
    { nodeArgs: ['--max-semi-space-size=4', '-r', join(__dirname, 'stall-probe.js')] },
  );
  const context = {
    url: server.url,
    write: { authorization: 'Bearer bench-write-key-0123456789' },
    read: { authorization: 'Bearer bench-read-key-0123456789' },
  };
  try {
    const prepared = await hostileCase.prepare(context);
    // What the preparation set going (runs failing, projections) is done before the measure starts.
    await settled(server.pid);
    await readStall(server, stallFile);
    const startRssMb = rssOf(server.pid);
    const stopWatching = watch(server);
    const detail = await hostileCase.run(context, prepared);
    const stall = await readStall(server, stallFile).catch(() => ({ maxMs: NaN }));
    const watched = await stopWatching();
    return { name, exited: server.exited, stallMs: stall.maxMs, startRssMb, ...watched, detail };
  } finally {
    // A graceful stop, so that BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' writes its profile.
    await server.stop();
  }
}

async function main() {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(CASES);
  for (const name of names) if (!CASES[name]) throw new Error(`no case ${name}: ${Object.keys(CASES).join(', ')}`);
  console.log(`hostile input, ${names.length} cases (${loadAverage()})`);
  const results = [];
  for (const name of names) {
    const result = await runCase(name, CASES[name]).catch((error) => ({ name, error: String(error) }));
    results.push(result);
    if (result.error) console.log(`${name}: ERROR ${result.error}`);
    else
      console.log(
        `${name}: stall ${result.stallMs.toFixed(1)} ms, peak RSS ${result.peakRssMb.toFixed(0)} MB ` +
          `(${result.startRssMb.toFixed(0)} MB at the start), ` +
          `/health/live slowest ${result.slowestLiveMs.toFixed(0)} ms, missed ${result.missed}` +
          (result.exited !== null ? `, EXITED (${result.exited})` : '') +
          (result.detail ? `; ${result.detail}` : ''),
      );
  }
  const failed = results.filter(
    (r) => r.error || r.exited !== null || r.stallMs > STALL_GOAL_MS || r.peakRssMb > RSS_GOAL_MB || r.missed > 0,
  );
  const worst = Math.max(...results.filter((r) => !r.error).map((r) => r.stallMs));
  console.log(
    `longest stall ${worst.toFixed(1)} ms (goal ${STALL_GOAL_MS}, moonshot 20); ` +
      `${results.length - failed.length} of ${results.length} cases within every goal` +
      (failed.length ? `; missed: ${failed.map((r) => r.name).join(', ')}` : ''),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
