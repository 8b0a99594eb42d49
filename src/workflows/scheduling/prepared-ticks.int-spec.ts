import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SchedulerInstance,
  eventsOfType,
  scheduledRuns,
  startSchedulerInstance,
  useFakeTimers,
} from '../../../test/support/scheduler-instance';
import { ActorRegistry } from '../../actors/actor-registry';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { PauseWorkflowCommand } from '../pause-workflow/pause-workflow.command';
import { UpdateWorkflowCommand } from '../update-workflow/update-workflow.command';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { PreparedTicks } from './prepared-ticks';

const MINUTE = 60_000;
const TICK = '2026-03-02T09:01:00.000Z';
/** Milliseconds from the tests' start (09:00:10) to the tick. */
const UNTIL_TICK = 50_000;

/**
 * Ticks prepared ahead (SCHEDULE_PREPARE_AHEAD_MS, 10 s by default), through the real cron jobs under fake timers
 * and the real SQLite store: decided and encoded before the tick, committed at it as they were prepared, and
 * decided again at the tick for a workflow that moved on since.
 */
describe('ticks prepared ahead (fake timers, real SQLite store)', () => {
  let folder: string;
  let eventsFile: string;
  let a: SchedulerInstance;
  let store: EventStore;

  /** The store's batch commits: prepared (with how many appends were kept) or decided at the time. */
  function watchCommits() {
    const commits: Array<{ prepared: boolean; appends: number }> = [];
    const { appendPrepared, appendBatch } = store;
    jest.spyOn(store, 'appendPrepared').mockImplementation((prepared) => {
      commits.push({ prepared: true, appends: prepared.flatMap(({ keep }) => keep.filter(Boolean)).length });
      return appendPrepared!(prepared);
    });
    jest.spyOn(store, 'appendBatch').mockImplementation((appends, expected) => {
      const all = [...appends];
      commits.push({ prepared: false, appends: all.length });
      return appendBatch(all, expected);
    });
    return commits;
  }

  /** Each scheduled trigger's workflow version, by workflow. */
  const versionsTriggered = () =>
    new Map(eventsOfType(eventsFile, 'WorkflowTriggered').map((data) => [data.workflowId, data.workflowVersion]));

  beforeEach(async () => {
    useFakeTimers(new Date('2026-03-02T09:00:10.000Z'));
    folder = mkdtempSync(join(tmpdir(), 'prepared-ticks-'));
    eventsFile = join(folder, 'events.sqlite');
    a = await startSchedulerInstance(mkdtempSync(join(folder, 'a-')), eventsFile);
    store = a.app.get<EventStore>(EVENT_STORE);
  });
  afterEach(async () => {
    await a.close();
    jest.useRealTimers();
    rmSync(folder, { recursive: true, force: true });
  });

  it('decides and encodes a tick before it, so that at the tick its triggers are only committed', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await a.createScheduledWorkflow('* * * * *'));
    const prepare = jest.spyOn(store, 'prepareBatch');
    const commits = watchCommits();
    await jest.advanceTimersByTimeAsync(UNTIL_TICK - 1000);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(prepare.mock.calls[0][0]).toHaveLength(25);
    expect(ids.every((id) => a.app.get(PreparedTicks).has(id, new Date(TICK)))).toBe(true);
    expect(scheduledRuns(eventsFile)).toEqual([]);

    const decide = jest.spyOn(workflowDecider, 'decide');
    await jest.advanceTimersByTimeAsync(1000 + 100);
    await a.settle();
    expect(commits).toEqual([{ prepared: true, appends: 25 }]);
    expect(decide).not.toHaveBeenCalled();
    for (const id of ids) expect(scheduledRuns(eventsFile, id)).toEqual([TICK]);
    // Decided as of the tick itself.
    expect(new Set(eventsOfType(eventsFile, 'WorkflowTriggered').map((data) => data.triggeredAt))).toEqual(
      new Set([TICK]),
    );
  });

  it('prepares again, in a round of its own, a workflow changed or created within the time ahead', async () => {
    const [changed, other] = [
      await a.createScheduledWorkflow('* * * * *'),
      await a.createScheduledWorkflow('* * * * *'),
    ];
    const prepare = jest.spyOn(store, 'prepareBatch');
    const commits = watchCommits();
    await jest.advanceTimersByTimeAsync(UNTIL_TICK - 5000);
    await a.commands.execute(new UpdateWorkflowCommand(changed, { name: 'renamed' }, undefined));
    const late = await a.createScheduledWorkflow('* * * * *');
    await jest.advanceTimersByTimeAsync(5000 + 100);
    await a.settle();
    expect(prepare.mock.calls.map(([appends]) => appends.length)).toEqual([2, 2]);
    expect(commits).toEqual([{ prepared: true, appends: 3 }]);
    expect(versionsTriggered()).toEqual(
      new Map([
        [changed, 2],
        [other, 1],
        [late, 1],
      ]),
    );
  });

  it('decides at the tick a workflow that moved on too close to it to be prepared again', async () => {
    const [changed, other] = [
      await a.createScheduledWorkflow('* * * * *'),
      await a.createScheduledWorkflow('* * * * *'),
    ];
    const commits = watchCommits();
    await jest.advanceTimersByTimeAsync(UNTIL_TICK - 300);
    await a.commands.execute(new UpdateWorkflowCommand(changed, { name: 'renamed' }, undefined));
    await jest.advanceTimersByTimeAsync(300 + 100);
    await a.settle();
    expect(commits).toEqual([
      { prepared: true, appends: 1 },
      { prepared: false, appends: 1 },
    ]);
    expect(versionsTriggered()).toEqual(
      new Map([
        [changed, 2],
        [other, 1],
      ]),
    );
    for (const id of [changed, other]) expect(scheduledRuns(eventsFile, id)).toEqual([TICK]);
  });

  it('commits as prepared the tick of a workflow whose actor the cache let go of since', async () => {
    const ids = [await a.createScheduledWorkflow('* * * * *'), await a.createScheduledWorkflow('* * * * *')];
    await jest.advanceTimersByTimeAsync(UNTIL_TICK - 1000);
    a.app.get(ActorRegistry).drop(ids.map((id) => workflowStream(id)));
    const commits = watchCommits();
    await jest.advanceTimersByTimeAsync(1000 + 100);
    await a.settle();
    expect(commits).toEqual([{ prepared: true, appends: 2 }]);
    for (const id of ids) expect(scheduledRuns(eventsFile, id)).toEqual([TICK]);
  });

  it('leaves out of the tick a workflow paused after its round, and prepares the next tick too', async () => {
    const [paused, other] = [
      await a.createScheduledWorkflow('* * * * *'),
      await a.createScheduledWorkflow('* * * * *'),
    ];
    await jest.advanceTimersByTimeAsync(UNTIL_TICK - 300);
    await a.commands.execute(new PauseWorkflowCommand(paused));
    const commits = watchCommits();
    await jest.advanceTimersByTimeAsync(300 + MINUTE + 100);
    await a.settle();
    expect(commits).toEqual([
      { prepared: true, appends: 1 },
      { prepared: true, appends: 1 },
    ]);
    expect(scheduledRuns(eventsFile, paused)).toEqual([]);
    expect(scheduledRuns(eventsFile, other)).toEqual([TICK, '2026-03-02T09:02:00.000Z']);
  });
});
