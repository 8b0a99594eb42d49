import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommandBus } from '@nestjs/cqrs';
import { SchedulerRegistry } from '@nestjs/schedule';
import {
  SchedulerInstance,
  eventsOfType,
  scheduledRuns,
  startSchedulerInstance,
  useFakeTimers,
} from '../../../test/support/scheduler-instance';
import { ArchiveWorkflowCommand } from '../archive-workflow/archive-workflow.command';
import { TriggerWorkflowCommand } from '../trigger-workflow/trigger-workflow.command';
import { UpdateWorkflowCommand } from '../update-workflow/update-workflow.command';
import { PauseWorkflowCommand } from '../pause-workflow/pause-workflow.command';
import { GetWorkflowQuery } from '../queries/workflow.queries';
import { ResumeWorkflowCommand } from '../resume-workflow/resume-workflow.command';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { SkipScheduledRunsCommand } from './skip-scheduled-runs.command';
import { ScheduledTick, TriggerScheduledRunsCommand } from './trigger-scheduled-runs.command';
import { GATHER_MS, scheduleJobName } from './workflow-scheduler';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tests that move time on by many steps (days of a schedule, two instances): seconds on a busy machine. */
const MANY_STEPS_TIMEOUT_MS = 30_000;

/** ISO times `count` minutes apart, the first `first`. */
function minutes(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(first) + i * MINUTE).toISOString());
}

describe('workflow scheduler (fake timers, real SQLite store)', () => {
  let folder: string;
  let eventsFile: string;
  const instances: SchedulerInstance[] = [];

  async function start(name = 'a', options: Parameters<typeof startSchedulerInstance>[2] = {}) {
    const instance = await startSchedulerInstance(mkdtempSync(join(folder, `${name}-`)), eventsFile, options);
    instances.push(instance);
    return instance;
  }

  async function stop(instance: SchedulerInstance) {
    instances.splice(instances.indexOf(instance), 1);
    await instance.close();
  }

  /** Moves time on in steps, letting every instance finish each step's ticks. */
  async function advance(ms: number, step = MINUTE) {
    for (let left = ms; left > 0; left -= step) {
      await jest.advanceTimersByTimeAsync(Math.min(step, left));
      for (const instance of instances) await instance.settle();
    }
  }

  beforeEach(() => {
    useFakeTimers(new Date('2026-03-02T09:00:10.000Z'));
    folder = mkdtempSync(join(tmpdir(), 'scheduler-'));
    eventsFile = join(folder, 'events.sqlite');
  });
  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.close();
    jest.useRealTimers();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs a workflow every minute, once per minute, named by its tick; lastRun and nextRunAt move', async () => {
    const a = await start();
    const id = await a.createScheduledWorkflow('* * * * *');
    await advance(5 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(minutes('2026-03-02T09:01:00.000Z', 5));
    const workflow = await a.queries.execute(new GetWorkflowQuery(id));
    // Prepared before its tick (SCHEDULE_PREPARE_AHEAD_MS), the trigger was decided as of the tick itself.
    expect(workflow.lastRun).toBe('2026-03-02T09:05:00.000Z');
    expect(workflow.nextRunAt).toBe('2026-03-02T09:06:00.000Z');
  });

  it('keeps one cron job per schedule, shared by its workflows, until the last of them leaves it', async () => {
    const a = await start();
    const registry = a.app.get(SchedulerRegistry);
    const ids = [await a.createScheduledWorkflow('* * * * *'), await a.createScheduledWorkflow('* * * * *')];
    const other = await a.createScheduledWorkflow('* * * * *', 'Europe/Berlin');
    expect([...registry.getCronJobs().keys()].sort()).toEqual([
      scheduleJobName('* * * * *', 'Europe/Berlin'),
      scheduleJobName('* * * * *', 'UTC'),
    ]);
    await advance(MINUTE);
    for (const id of [...ids, other]) expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);

    await a.commands.execute(new PauseWorkflowCommand(ids[0]));
    await a.settle();
    expect(registry.getCronJobs().size).toBe(2);
    await a.commands.execute(new ArchiveWorkflowCommand(ids[1], undefined));
    await a.settle();
    expect([...registry.getCronJobs().keys()]).toEqual([scheduleJobName('* * * * *', 'Europe/Berlin')]);
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile).filter((tick) => tick === '2026-03-02T09:02:00.000Z')).toHaveLength(1);
  });

  it('sends the ticks of jobs firing a few milliseconds apart as one command, so they share commits', async () => {
    const a = await start();
    const ids = [
      await a.createScheduledWorkflow('* * * * *'),
      await a.createScheduledWorkflow('* * * * *', 'Asia/Tokyo'),
    ];
    const sent: Array<{ at: number; ticks: ScheduledTick[] }> = [];
    jest.spyOn(a.commands, 'execute').mockImplementation(async (command) => {
      sent.push({ at: Date.now(), ticks: (command as TriggerScheduledRunsCommand).ticks });
    });
    const registry = a.app.get(SchedulerRegistry);
    const late = registry.getCronJob(scheduleJobName('* * * * *', 'Asia/Tokyo'));
    await jest.advanceTimersByTimeAsync(50_000 - 1); // 09:00:59.999, a millisecond before the tick
    late.stop(); // fired by hand below, as if its timer were 3 ms late
    await jest.advanceTimersByTimeAsync(1 + 3);
    await late.fireOnTick();
    expect(sent).toEqual([]);
    await jest.advanceTimersByTimeAsync(GATHER_MS - 3);
    const tick = new Date('2026-03-02T09:01:00.000Z');
    expect(sent).toEqual([
      {
        at: tick.getTime() + GATHER_MS,
        ticks: ids.map((workflowId) => ({ workflowId, scheduledFor: tick })),
      },
    ]);
  });

  it('still records the other runs of a tick when one fails', async () => {
    const a = await start('a', { prepareAheadMs: 0 });
    const ids = [await a.createScheduledWorkflow('* * * * *'), await a.createScheduledWorkflow('* * * * *')];
    const store = a.app.get<EventStore>(EVENT_STORE);
    const appendBatch = store.appendBatch;
    jest
      .spyOn(store, 'appendBatch')
      .mockImplementationOnce(async ([, ...others]) => [
        { error: new Error('failed at once') },
        ...(await appendBatch(others)),
      ]);
    await advance(MINUTE);
    const runs = ids.map((id) => scheduledRuns(eventsFile, id));
    expect(runs.map((ticks) => ticks.length).sort()).toEqual([0, 1]);
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile)).toHaveLength(3); // the failed tick is not run late; the next one runs
  });

  it(
    'produces exactly one run per tick from two instances on one store, over 20 ticks',
    async () => {
      const a = await start('a', { pollIntervalMs: 1000 });
      const b = await start('b', { pollIntervalMs: 1000 });
      const sent = [a, b].map((instance) => jest.spyOn(instance.commands, 'execute'));
      const id = await a.createScheduledWorkflow('* * * * *');
      await advance(5000, 1000); // b's subscription polls the shared file and schedules the workflow too
      expect([a.scheduler.size, b.scheduler.size]).toEqual([1, 1]);

      await advance(20 * MINUTE);
      expect(scheduledRuns(eventsFile, id)).toEqual(minutes('2026-03-02T09:01:00.000Z', 20));
      const ticksSent = sent.map(
        (spy) => spy.mock.calls.flatMap(([c]) => (c instanceof TriggerScheduledRunsCommand ? c.ticks : [])).length,
      );
      expect(ticksSent).toEqual([20, 20]);
    },
    MANY_STEPS_TIMEOUT_MS,
  );

  it(
    'produces exactly one run per workflow per tick from two instances sending their ticks in one batch each',
    async () => {
      const a = await start('a', { pollIntervalMs: 1000 });
      const b = await start('b', { pollIntervalMs: 1000 });
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push(await a.createScheduledWorkflow('* * * * *'));
      await advance(5000, 1000);
      expect([a.scheduler.size, b.scheduler.size]).toEqual([30, 30]);

      await advance(3 * MINUTE);
      for (const id of ids) expect(scheduledRuns(eventsFile, id)).toEqual(minutes('2026-03-02T09:01:00.000Z', 3));
    },
    MANY_STEPS_TIMEOUT_MS,
  );

  it('stops running an archived workflow, and does not schedule it again after a restart', async () => {
    const a = await start();
    const registry = a.app.get(SchedulerRegistry);
    const id = await a.createScheduledWorkflow('* * * * *');
    await advance(MINUTE);
    await a.commands.execute(new ArchiveWorkflowCommand(id, undefined));
    await a.settle();
    expect(registry.getCronJobs().size).toBe(0);
    await advance(3 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);

    await stop(a);
    const b = await start('b');
    expect(b.app.get(SchedulerRegistry).getCronJobs().size).toBe(0);
    await advance(2 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toEqual([]);
  });

  it('moves the job to a changed schedule, from the change on', async () => {
    const a = await start();
    const registry = a.app.get(SchedulerRegistry);
    const id = await a.createScheduledWorkflow('*/2 * * * *');
    await advance(2 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:02:00.000Z']);
    await a.commands.execute(new UpdateWorkflowCommand(id, { trigger: { cron: '*/3 * * * *' } }, undefined));
    await a.settle();
    expect(registry.getCronJobs().size).toBe(1);
    await advance(4 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual([
      '2026-03-02T09:02:00.000Z',
      '2026-03-02T09:03:00.000Z',
      '2026-03-02T09:06:00.000Z',
    ]);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toEqual([]);
  });

  it('stops running a paused workflow and starts again from the resumption', async () => {
    const a = await start();
    const registry = a.app.get(SchedulerRegistry);
    const id = await a.createScheduledWorkflow('* * * * *');
    await advance(MINUTE);
    await a.commands.execute(new PauseWorkflowCommand(id));
    await a.settle();
    expect(registry.getCronJobs().size).toBe(0);
    await advance(3 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);

    const manual = await a.commands.execute(new TriggerWorkflowCommand(id, { by: 'hand' }));
    expect(manual.trigger).toEqual({ type: 'manual' });

    await a.commands.execute(new ResumeWorkflowCommand(id));
    await a.settle();
    expect(registry.getCronJobs().size).toBe(1);
    await advance(2 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual([
      '2026-03-02T09:01:00.000Z',
      '2026-03-02T09:05:00.000Z',
      '2026-03-02T09:06:00.000Z',
    ]);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toEqual([]);
  });

  it('after downtime runs the latest missed tick once if within the window, and records the others as skipped', async () => {
    let a = await start('a', { catchUpWindowMs: 5 * MINUTE });
    const id = await a.createScheduledWorkflow('* * * * *');
    await advance(2 * MINUTE);
    await stop(a);

    jest.setSystemTime(new Date('2026-03-02T09:12:30.000Z'));
    a = await start('a', { catchUpWindowMs: 5 * MINUTE });
    await a.settle();
    expect(scheduledRuns(eventsFile, id)).toEqual([
      '2026-03-02T09:01:00.000Z',
      '2026-03-02T09:02:00.000Z',
      '2026-03-02T09:12:00.000Z',
    ]);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toEqual([
      {
        workflowId: id,
        first: '2026-03-02T09:03:00.000Z',
        last: '2026-03-02T09:11:00.000Z',
        count: 9,
        skippedAt: '2026-03-02T09:12:30.000Z',
      },
    ]);
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile, id).slice(-2)).toEqual(['2026-03-02T09:12:00.000Z', '2026-03-02T09:13:00.000Z']);
  });

  it('does not hold up the start for the ticks missed during downtime: they run once it is up', async () => {
    let a = await start('a', { catchUpWindowMs: 5 * MINUTE });
    const id = await a.createScheduledWorkflow('* * * * *');
    await stop(a);

    jest.setSystemTime(new Date('2026-03-02T09:02:30.000Z'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = CommandBus.prototype.execute;
    const execute = jest.spyOn(CommandBus.prototype, 'execute').mockImplementation(async function (
      this: CommandBus,
      command: Command<unknown>,
    ) {
      if (command instanceof SkipScheduledRunsCommand) await held;
      return original.call(this, command);
    } as CommandBus['execute']);
    a = await start('a', { catchUpWindowMs: 5 * MINUTE });
    expect(scheduledRuns(eventsFile, id)).toEqual([]);
    release();
    await a.settle();
    execute.mockRestore();
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:02:00.000Z']);
  });

  it('after downtime skips every missed tick when the latest is outside the window (0: no catch-up)', async () => {
    let a = await start('a', { catchUpWindowMs: 0 });
    const id = await a.createScheduledWorkflow('* * * * *');
    await advance(MINUTE);
    await stop(a);

    jest.setSystemTime(new Date('2026-03-02T09:04:30.000Z'));
    a = await start('a', { catchUpWindowMs: 0 });
    await a.settle();
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toMatchObject([
      { first: '2026-03-02T09:02:00.000Z', last: '2026-03-02T09:04:00.000Z', count: 3 },
    ]);
    await advance(MINUTE); // ticks of a running service still run with a window of 0
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:05:00.000Z']);
  });

  it('two instances starting after downtime catch up once between them', async () => {
    let a = await start('a', { pollIntervalMs: 1000 });
    const id = await a.createScheduledWorkflow('*/10 * * * *');
    await stop(a);
    jest.setSystemTime(new Date('2026-03-02T09:31:00.000Z'));
    a = await start('a', { pollIntervalMs: 1000 });
    const b = await start('b', { pollIntervalMs: 1000 });
    await advance(5000, 1000);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:30:00.000Z']);
    expect(eventsOfType(eventsFile, 'ScheduledRunsSkipped')).toMatchObject([
      { first: '2026-03-02T09:10:00.000Z', last: '2026-03-02T09:20:00.000Z', count: 2 },
    ]);
    expect(b.scheduler.size).toBe(1);
  });

  it(
    'follows daylight-saving changes in its time zone',
    async () => {
      jest.setSystemTime(new Date('2026-03-27T00:00:00.000Z'));
      const a = await start();
      // 02:30 does not exist in Berlin on 29 March: that day it runs at 03:00 CEST.
      const daily = await a.createScheduledWorkflow('30 2 * * *', 'Europe/Berlin');
      await advance(4 * DAY, HOUR);
      expect(scheduledRuns(eventsFile, daily)).toEqual([
        '2026-03-27T01:30:00.000Z',
        '2026-03-28T01:30:00.000Z',
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
      ]);
    },
    MANY_STEPS_TIMEOUT_MS,
  );

  it(
    'runs an hourly schedule every real hour across the autumn change, twice at 02:00 local',
    async () => {
      jest.setSystemTime(new Date('2026-10-24T22:30:00.000Z'));
      const a = await start();
      const hourly = await a.createScheduledWorkflow('0 * * * *', 'Europe/Berlin');
      await advance(5 * HOUR, 15 * MINUTE);
      expect(scheduledRuns(eventsFile, hourly)).toEqual([
        '2026-10-24T23:00:00.000Z', // 01:00 CEST
        '2026-10-25T00:00:00.000Z', // 02:00 CEST
        '2026-10-25T01:00:00.000Z', // 02:00 CET
        '2026-10-25T02:00:00.000Z', // 03:00 CET
        '2026-10-25T03:00:00.000Z', // 04:00 CET
      ]);
    },
    MANY_STEPS_TIMEOUT_MS,
  );
});
