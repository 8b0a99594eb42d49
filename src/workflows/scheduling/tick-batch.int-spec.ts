import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  SchedulerInstance,
  eventsOfType,
  scheduledRuns,
  startSchedulerInstance,
  useFakeTimers,
} from '../../../test/support/scheduler-instance';
import { OverlapPolicy } from '../../domain/run-slots';
import { EVENT_STORE, EventStore, StreamAppend } from '../../event-store/event-store';
import { CreateWorkflowCommand } from '../create-workflow/create-workflow.command';
import { PauseWorkflowCommand } from '../pause-workflow/pause-workflow.command';
import { TriggerWorkflowCommand } from '../trigger-workflow/trigger-workflow.command';
import { TriggerScheduledRunsHandler } from './trigger-scheduled-runs.handler';

const MINUTE = 60_000;

/** The types of one workflow's events, in order. */
function typesOf(eventsFile: string, workflowId: string): string[] {
  const db = new Database(eventsFile, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT type FROM events WHERE stream = ? ORDER BY revision')
      .all(`workflow-${workflowId}`) as Array<{ type: string }>;
    return rows.map((row) => row.type);
  } finally {
    db.close();
  }
}

/**
 * A tick decided as a batch at the tick (SCHEDULE_PREPARE_AHEAD_MS=0), through the real cron jobs under fake timers and the real SQLite store: one pass over
 * the due workflows' states in memory, one commit, and commands sent to those workflows during the pass waiting
 * for it.
 */
describe('a tick decided in one pass (fake timers, real SQLite store)', () => {
  let folder: string;
  let eventsFile: string;
  let instances: SchedulerInstance[];

  async function start(name: string) {
    // Decided at the tick: ticks prepared ahead are in prepared-ticks.int-spec.ts.
    const instance = await startSchedulerInstance(mkdtempSync(join(folder, `${name}-`)), eventsFile, {
      pollIntervalMs: 1000,
      prepareAheadMs: 0,
    });
    instances.push(instance);
    return instance;
  }
  async function advance(ms: number, step = MINUTE) {
    for (let left = ms; left > 0; left -= step) {
      await jest.advanceTimersByTimeAsync(Math.min(step, left));
      for (const instance of instances) await instance.settle();
    }
  }
  /** The store's batches, as they are appended; `during` runs as the pass hands its batch to the store. */
  function watchBatches(instance: SchedulerInstance, during?: () => void) {
    const store = instance.app.get<EventStore>(EVENT_STORE);
    const appendBatch = store.appendBatch;
    const batches: StreamAppend[][][] = [];
    jest.spyOn(store, 'appendBatch').mockImplementation((appends) => {
      const batch: StreamAppend[][] = [];
      batches.push(batch);
      return appendBatch(
        (function* () {
          for (const parts of appends) {
            batch.push(parts);
            yield parts;
          }
          during?.(); // every command of the pass decided, its actor held until the commit is answered
        })(),
      );
    });
    return batches;
  }

  beforeEach(() => {
    useFakeTimers(new Date('2026-03-02T09:00:10.000Z'));
    folder = mkdtempSync(join(tmpdir(), 'tick-batch-'));
    eventsFile = join(folder, 'events.sqlite');
    instances = [];
  });
  afterEach(async () => {
    for (const instance of instances) await instance.close();
    jest.useRealTimers();
    rmSync(folder, { recursive: true, force: true });
  });

  it("records a tick of many workflows in one batch, each trigger beside its run's stream", async () => {
    const a = await start('a');
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await a.createScheduledWorkflow('* * * * *'));
    const batches = watchBatches(a);
    await advance(MINUTE);
    expect(batches).toHaveLength(1);
    expect(batches[0].map((parts) => parts.map((part) => part.stream.split('-')[0]))).toEqual(
      Array(25).fill(['workflow', 'workflowrun']),
    );
    for (const id of ids) expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);
  });

  it('makes a trigger sent during the pass wait for it, then record its own run without a conflict', async () => {
    const a = await start('a');
    const id = await a.createScheduledWorkflow('* * * * *');
    const store = a.app.get<EventStore>(EVENT_STORE);
    let manual: Promise<unknown> | undefined;
    watchBatches(a, () => (manual ??= a.commands.execute(new TriggerWorkflowCommand(id, { by: 'hand' }))));
    const multiple = jest.spyOn(store, 'appendMultiple');
    await advance(MINUTE);
    await manual;
    expect(typesOf(eventsFile, id)).toEqual(['WorkflowCreated', 'WorkflowTriggered', 'WorkflowTriggered']);
    expect(eventsOfType(eventsFile, 'WorkflowTriggered').map((data) => data.trigger)).toEqual([
      { type: 'schedule', scheduledFor: '2026-03-02T09:01:00.000Z' },
      { type: 'manual' },
    ]);
    // Decided once, on the state the pass left: no conflict and no second attempt.
    expect(multiple).toHaveBeenCalledTimes(1);
  });

  it('makes a pause sent during the pass wait for it: the tick runs, the next one does not', async () => {
    const a = await start('a');
    const [paused, other] = [
      await a.createScheduledWorkflow('* * * * *'),
      await a.createScheduledWorkflow('* * * * *'),
    ];
    let pause: Promise<unknown> | undefined;
    watchBatches(a, () => (pause ??= a.commands.execute(new PauseWorkflowCommand(paused))));
    const appends = jest.spyOn(a.app.get<EventStore>(EVENT_STORE), 'append');
    await advance(MINUTE);
    await pause;
    expect(typesOf(eventsFile, paused)).toEqual(['WorkflowCreated', 'WorkflowTriggered', 'WorkflowPaused']);
    // Decided once, after the pass: no conflict.
    expect(appends.mock.calls.filter(([stream]) => stream === `workflow-${paused}`)).toHaveLength(1);
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile, paused)).toEqual(['2026-03-02T09:01:00.000Z']);
    expect(scheduledRuns(eventsFile, other)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:02:00.000Z']);
  });

  it('decides skip and buffer_one in the same pass as the runs of other workflows', async () => {
    const a = await start('a');
    const trigger = { type: 'schedule' as const, cron: '* * * * *', timezone: 'UTC' };
    const create = async (overlap: OverlapPolicy) =>
      (await a.commands.execute(new CreateWorkflowCommand(overlap, trigger, [{ approval: 'Go on?' }], { overlap }))).id;
    const [allow, skip, buffer] = [await create('allow'), await create('skip'), await create('buffer_one')];
    await advance(MINUTE); // each has a run waiting for its approval now
    const batches = watchBatches(a);
    await advance(MINUTE);
    expect(batches).toHaveLength(1);
    const byWorkflow = new Map(batches[0].map((parts) => [parts[0].stream, parts.map((part) => part.events[0].type)]));
    expect(byWorkflow).toEqual(
      new Map([
        [`workflow-${allow}`, ['WorkflowTriggered', 'WorkflowRunQueued']],
        [`workflow-${skip}`, ['ScheduledTickSkipped']],
        [`workflow-${buffer}`, ['ScheduledTickBuffered']],
      ]),
    );
    expect(scheduledRuns(eventsFile, allow)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:02:00.000Z']);
    expect(scheduledRuns(eventsFile, skip)).toEqual(['2026-03-02T09:01:00.000Z']);
  });

  it('records each tick once from two instances deciding it as a batch each: the later one is refused', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await a.createScheduledWorkflow('* * * * *'));
    await advance(5000, 1000); // b's subscription polls the shared file and schedules them too
    expect([a.scheduler.size, b.scheduler.size]).toEqual([10, 10]);
    const outcomes = [a, b].map((instance) => jest.spyOn(instance.app.get(TriggerScheduledRunsHandler), 'execute'));

    await advance(2 * MINUTE);
    for (const id of ids)
      expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:02:00.000Z']);
    const results = await Promise.all(outcomes.flatMap((spy) => spy.mock.results.map((result) => result.value)));
    const total = (key: 'recorded' | 'refused' | 'failed') => results.reduce((sum, outcome) => sum + outcome[key], 0);
    expect([total('recorded'), total('refused'), total('failed')]).toEqual([20, 20, 0]);
  });
});
