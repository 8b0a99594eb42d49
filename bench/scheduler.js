'use strict';
// Scheduler: workflows scheduled every minute on one instance. For each measured tick: the lag from scheduledFor
// to the run being recorded (its WorkflowTriggered event, which lists the run: the time the store stamps on the
// commit, taken as the writer starts it), to that commit being durable (seen by a reader polling the file every
// POLL_MS: SQLite shows a commit only once it is synced), and to its own stream being opened (WorkflowRunQueued),
// runs missed or doubled, and resident memory.
// Ticks are prepared ahead by default (SCHEDULE_PREPARE_AHEAD_MS); each run is a new service on an empty folder, and
// the first tick after its workflows are created is measured too.
// Usage: npm run build && node bench/scheduler.js [workflows=10000] [ticks=3] [runs=1] [--baseline]
// --baseline adds a run (in the middle) with every tick decided when it comes: SCHEDULE_PREPARE_AHEAD_MS=0.
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service; BENCH_SERVICE_MAIN=path/to/main.js
// measures another build (e.g. a copy of dist from before a change, see docs/benchmarks.md).
const autocannon = require('autocannon');
const Database = require('better-sqlite3');
const { loadavg } = require('node:os');
const { join } = require('node:path');
const { startServer, temporaryDir, memoryOf } = require('./lib');

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const workflows = Number(args[0] ?? 10_000);
const ticks = Number(args[1] ?? 3);
const runs = Number(args[2] ?? 1);
const baseline = process.argv.includes('--baseline');
const MINUTE = 60_000;
const POLL_MS = 5;
const GOAL_P99_MS = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The machine's load average: on a shared machine, figures mean something only beside it. */
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function createWorkflows(url) {
  const post = (path, body) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!(await post('/v1/agents', { name: 'bench', model: 'openai/gpt-4o-mini' })).ok) throw new Error('no agent');
  const body = JSON.stringify({
    name: 'every minute',
    trigger: { type: 'schedule', cron: '* * * * *' },
    steps: [{ agent: 'bench', action: 'go' }],
  });
  const result = await autocannon({
    url,
    connections: 10,
    amount: workflows,
    requests: [{ method: 'POST', path: '/v1/workflows', headers: { 'content-type': 'application/json' }, body }],
  });
  if (result['2xx'] !== workflows) throw new Error(`created ${result['2xx']} of ${workflows} workflows`);
}

/** Per measured tick: lags of its runs, and how many workflows ran it 0 times or more than once. */
function analyse(eventsFile, tickTimes, heads) {
  const db = new Database(eventsFile, { readonly: true });
  const ids = db.prepare(`SELECT json_extract(data, '$.id') AS id FROM events WHERE type = 'WorkflowCreated'`).all();
  const scheduled = (type) =>
    db
      .prepare(
        `SELECT json_extract(data, '$.workflowId') AS workflowId,
                json_extract(data, '$.trigger.scheduledFor') AS tick, recorded_at AS recordedAt, position
         FROM events WHERE type = ? AND json_extract(data, '$.trigger.type') = 'schedule'`,
      )
      .all(type);
  const recorded = scheduled('WorkflowTriggered');
  const opened = scheduled('WorkflowRunQueued');
  const skipped = db.prepare(`SELECT count(*) AS n FROM events WHERE type = 'ScheduledRunsSkipped'`).get().n;
  db.close();
  const lagsOf = (runs, tick, at = (run) => run.recordedAt) =>
    runs
      .filter((run) => run.tick === new Date(tick).toISOString())
      .map((run) => at(run) - tick)
      .sort((a, b) => a - b);
  // The first poll that saw the log's head at or past the run's position.
  const seenAt = (run) => heads.find(([, head]) => head >= run.position)?.[0] ?? Infinity;
  return tickTimes.map((tick) => {
    const iso = new Date(tick).toISOString();
    const perWorkflow = new Map(ids.map(({ id }) => [id, 0]));
    for (const run of recorded) {
      if (run.tick === iso) perWorkflow.set(run.workflowId, perWorkflow.get(run.workflowId) + 1);
    }
    const lags = lagsOf(recorded, tick);
    const openLags = lagsOf(opened, tick);
    const durableLags = lagsOf(recorded, tick, seenAt);
    const counts = [...perWorkflow.values()];
    return {
      tick: iso,
      runs: lags.length,
      missed: counts.filter((n) => n === 0).length,
      doubled: counts.filter((n) => n > 1).length,
      lagMedianMs: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      lagMaxMs: lags[lags.length - 1],
      durableP99Ms: percentile(durableLags, 99),
      streamsOpened: openLags.length,
      openLagP99Ms: percentile(openLags, 99),
      skippedEvents: skipped,
    };
  });
}

/** One service from an empty folder: the workflows created, then `ticks` ticks measured. */
async function runOnce(extraEnv) {
  const dataDir = temporaryDir('bench-scheduler-');
  // Every scheduled workflow's actor must stay cached, or each tick reloads every workflow's stream.
  const actorCacheSize = process.env.ACTOR_CACHE_SIZE ?? String(2 * workflows);
  const serviceMain = process.env.BENCH_SERVICE_MAIN ?? join(__dirname, '..', 'dist', 'main.js');
  const server = await startServer(serviceMain, { DATA_DIR: dataDir, ACTOR_CACHE_SIZE: actorCacheSize, ...extraEnv });
  let peakRssMb = 0;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, memoryOf(server.pid).rssMb)), 200);
  let tickTimes;
  let heads;
  let end;
  try {
    const started = Date.now();
    await createWorkflows(server.url);
    const created = Date.now();
    console.log(
      `created ${workflows} workflows (cron "* * * * *", UTC) in ${((created - started) / 1000).toFixed(1)} s; ACTOR_CACHE_SIZE=${actorCacheSize}`,
    );
    // The first tick after the workflows are created is measured too, however close it is.
    const first = Math.ceil((created + 1000) / MINUTE) * MINUTE;
    tickTimes = Array.from({ length: ticks }, (_, i) => first + i * MINUTE);
    console.log(`measuring ${ticks} ticks from ${new Date(first).toISOString()} (${load()})`);
    heads = await pollHeads(join(dataDir, 'events.sqlite'), tickTimes, tickTimes[ticks - 1] + 20_000);
  } finally {
    clearInterval(sampler);
    end = memoryOf(server.pid);
    await server.stop();
  }
  const results = analyse(join(dataDir, 'events.sqlite'), tickTimes, heads);
  for (const result of results) console.log(JSON.stringify(result));
  const summary = {
    worstP99: Math.max(...results.map((r) => r.lagP99Ms)),
    worstOpenP99: Math.max(...results.map((r) => r.openLagP99Ms)),
    worstDurableP99: Math.max(...results.map((r) => r.durableP99Ms)),
    missed: results.reduce((sum, r) => sum + r.missed, 0),
    doubled: results.reduce((sum, r) => sum + r.doubled, 0),
  };
  console.log(
    `lag p99 (worst tick): ${summary.worstP99} ms to the run recorded (goal < ${GOAL_P99_MS} ms), ` +
      `${summary.worstDurableP99} ms to its commit durable, ${summary.worstOpenP99} ms to its stream opened`,
  );
  console.log(`missed: ${summary.missed}, doubled: ${summary.doubled} (goal 0 and 0); ${load()}`);
  console.log(
    `RSS: ${end.rssMb.toFixed(0)} MB at the end, peak ${Math.max(peakRssMb, end.peakRssMb).toFixed(0)} MB (goal < 400 MB)`,
  );
  return summary;
}

async function main() {
  // With --baseline, one run more, in the middle, with every tick decided when it comes (SCHEDULE_PREPARE_AHEAD_MS=0).
  const plan = Array.from({ length: runs }, () => 'prepared ahead');
  if (baseline) plan.splice(Math.floor(runs / 2), 0, 'decided at the tick');
  const summaries = { 'prepared ahead': [], 'decided at the tick': [] };
  for (const [i, kind] of plan.entries()) {
    console.log(`\nrun ${i + 1} of ${plan.length}: ${kind}`);
    const env = kind === 'decided at the tick' ? { SCHEDULE_PREPARE_AHEAD_MS: '0' } : {};
    summaries[kind].push(await runOnce(env));
  }
  if (plan.length === 1) return;
  console.log('');
  for (const [kind, list] of Object.entries(summaries)) {
    if (!list.length) continue;
    const p99s = list.map((s) => s.worstP99);
    const missed = list.reduce((sum, s) => sum + s.missed, 0);
    const doubled = list.reduce((sum, s) => sum + s.doubled, 0);
    const met = p99s.filter((p99) => p99 < GOAL_P99_MS).length;
    console.log(
      `${kind}: worst tick's lag p99 in each run ${p99s.join(', ')} ms; under ${GOAL_P99_MS} ms in ${met} of ` +
        `${list.length} runs; missed ${missed}, doubled ${doubled}`,
    );
  }
  console.log(load());
}

/** [time, head position] every POLL_MS from just before each tick to 15 s after it, until `until`. */
async function pollHeads(eventsFile, tickTimes, until) {
  const db = new Database(eventsFile, { readonly: true });
  const head = db.prepare('SELECT max(position) AS head FROM events').pluck();
  const heads = [];
  const polling = () => tickTimes.some((tick) => Date.now() >= tick - 200 && Date.now() <= tick + 15_000);
  while (Date.now() < until) {
    if (polling()) heads.push([Date.now(), head.get()]);
    await sleep(polling() ? POLL_MS : 100);
  }
  db.close();
  return heads;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
