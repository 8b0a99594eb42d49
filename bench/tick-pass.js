'use strict';
// The scheduler's pass alone, in process, for builds taking turns: the time and CPU from a tick's command to its
// batch handed to the SQLite writer (the moment the store stamps as the runs' recordedAt), over N workflows on one
// schedule whose actors are in memory. bench/scheduler.js measures the
// whole service but one build per run, a minute a tick; this compares builds in one run on a shared machine.
// Usage: npm run build && node bench/tick-pass.js [workflows=10000] [turns=3] [dist dirs...=dist]
// e.g. node bench/tick-pass.js 10000 3 .bench-before/dist dist
// BENCH_NODE_ARGS adds node flags to every build's process (e.g. --max-semi-space-size=16, or --cpu-prof).
const { spawnSync } = require('node:child_process');
const { loadavg } = require('node:os');
const { join, resolve } = require('node:path');

const ROUNDS_PER_TURN = 3;

if (process.argv[2] === '--child') child(resolve(process.argv[3]), Number(process.argv[4]));
else main();

function main() {
  const workflows = Number(process.argv[2] ?? 10_000);
  const turns = Number(process.argv[3] ?? 3);
  const builds = process.argv.length > 4 ? process.argv.slice(4) : ['dist'];
  const results = new Map(builds.map((build) => [build, []]));
  for (let turn = 0; turn < turns; turn++) {
    for (const build of builds) {
      // npm start's heap flags, so that the collector works as in the service; BENCH_NODE_ARGS adds or overrides
      // (the last of a flag counts), e.g. BENCH_NODE_ARGS=--max-semi-space-size=16 to weigh a V8 flag.
      const flags = ['--max-semi-space-size=4', ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
      const run = spawnSync(process.execPath, [...flags, __filename, '--child', build, workflows], {
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`${build}: ${run.stderr}`);
      results.get(build).push(...JSON.parse(run.stdout.trim().split('\n').at(-1)));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`${workflows} workflows, ${turns} turns of ${ROUNDS_PER_TURN} ticks per build; ${load()}`);
  for (const [build, rounds] of results) {
    const pick = (key) => median(rounds.map((round) => round[key])).toFixed(0);
    console.log(
      `${build}: tick to its last batch handed to the writer, median ${pick('flushMs')} ms; ` +
        `CPU by then: the process ${pick('cpuMs')} ms, its main thread ${pick('mainCpuMs')} ms (/proc, 10 ms steps); ` +
        `until every run is committed ${pick('doneMs')} ms`,
    );
  }
}

function load() {
  return `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;
}

/** In a process of its own: N workflows created, then ROUNDS_PER_TURN ticks of all of them, each measured. */
async function child(dist, workflows) {
  const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { SqliteEventStore } = require(join(dist, 'event-store/sqlite/sqlite-event-store'));
  const { ActorRegistry } = require(join(dist, 'actors/actor-registry'));
  const { workflowDecider } = require(join(dist, 'workflows/workflow/workflow'));
  const { workflowStream } = require(join(dist, 'workflows/workflow/workflow.events'));
  const { TriggerScheduledRunsHandler } = require(join(dist, 'workflows/scheduling/trigger-scheduled-runs.handler'));
  const { TriggerScheduledRunsCommand } = require(join(dist, 'workflows/scheduling/trigger-scheduled-runs.command'));
  const { WorkflowTriggers } = require(join(dist, 'workflows/trigger-workflow/workflow-triggers'));
  const { SystemClock } = require(join(dist, 'shared/clock'));
  const { UlidIdGenerator } = require(join(dist, 'shared/ids'));
  const folder = mkdtempSync(join(tmpdir(), 'bench-tick-pass-'));
  let handedAt;
  // The main thread's own CPU (the process's includes the writer and the collector's helper threads).
  const mainThreadStat = `/proc/${process.pid}/task/${process.pid}/stat`;
  const mainCpu = () => {
    const fields = readFileSync(mainThreadStat, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
  };
  // The writer reads the clock as it sends a commit: the end of the pass.
  const now = () => {
    handedAt = { time: performance.now(), cpu: process.cpuUsage(), main: mainCpu() };
    return new Date();
  };
  const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), now });
  const ids = new UlidIdGenerator();
  const actors = new ActorRegistry(store, new SystemClock(), ids, { cacheSize: 2 * workflows, maxAttempts: 10 });
  const opener = { openSoon() {} };
  // Builds from before the batch pass took the triggers of single runs.
  const handler =
    TriggerScheduledRunsHandler.length === 1
      ? new TriggerScheduledRunsHandler(new WorkflowTriggers(actors, ids, { waitFor: async () => {} }, opener))
      : new TriggerScheduledRunsHandler(actors, ids, opener);
  const context = { correlationId: 'bench', causationId: 'bench' };
  const workflowIds = Array.from({ length: workflows }, () => ids.newId('wf'));
  const trigger = { type: 'schedule', cron: '* * * * *', timezone: 'UTC' };
  const steps = [{ agent: 'bench', action: 'go' }];
  await Promise.all(
    workflowIds.map((id) =>
      actors.send(
        workflowStream(id),
        workflowDecider,
        { type: 'CreateWorkflow', id, name: 'every minute', trigger, steps },
        context,
        { newStream: true },
      ),
    ),
  );
  const rounds = [];
  for (let round = 1; round <= ROUNDS_PER_TURN; round++) {
    const scheduledFor = new Date(Date.now() + round * 60_000);
    const ticks = workflowIds.map((workflowId) => ({ workflowId, scheduledFor }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const start = { time: performance.now(), cpu: process.cpuUsage(), main: mainCpu() };
    const outcome = await handler.execute(new TriggerScheduledRunsCommand(ticks));
    if (outcome.recorded !== workflows) throw new Error(`recorded ${outcome.recorded} of ${workflows}`);
    const doneMs = performance.now() - start.time;
    const cpu = (usage) => (usage.user + usage.system) / 1000;
    rounds.push({
      flushMs: handedAt.time - start.time,
      cpuMs: cpu(handedAt.cpu) - cpu(start.cpu),
      mainCpuMs: handedAt.main - start.main,
      doneMs,
    });
  }
  await store.close();
  rmSync(folder, { recursive: true, force: true });
  console.log(JSON.stringify(rounds));
}
