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
import { CreateWorkflowCommand } from '../create-workflow/create-workflow.command';
import { DecideWorkflowApprovalCommand } from '../decide-workflow-approval/decide-workflow-approval.command';
import { ListWorkflowRunsQuery } from '../queries/workflow.queries';
import { OverlapPolicy } from '../../domain/run-slots';

const MINUTE = 60_000;

/**
 * Overlap policies driven by the real scheduler's cron jobs under fake timers, with two instances on one SQLite
 * file (both fire every tick). A run waits at an approval step, so it is still going when the next ticks come.
 */
describe('overlap policies under the scheduler (fake timers, two instances, real SQLite store)', () => {
  let folder: string;
  let eventsFile: string;
  let instances: SchedulerInstance[];

  beforeEach(async () => {
    useFakeTimers(new Date('2026-03-02T09:00:10.000Z'));
    folder = mkdtempSync(join(tmpdir(), 'overlap-'));
    eventsFile = join(folder, 'events.sqlite');
    instances = [];
    for (const name of ['a', 'b'])
      instances.push(await startSchedulerInstance(mkdtempSync(join(folder, `${name}-`)), eventsFile));
  });
  afterEach(async () => {
    for (const instance of instances) await instance.close();
    jest.useRealTimers();
    rmSync(folder, { recursive: true, force: true });
  });

  async function settle() {
    for (const instance of instances) await instance.settle();
  }
  async function advance(ms: number) {
    for (let left = ms; left > 0; left -= MINUTE) {
      await jest.advanceTimersByTimeAsync(Math.min(MINUTE, left));
      await settle();
    }
  }
  /** Lets the process managers of both instances react, until `done` holds (fake timers: no wall-clock waits). */
  async function until(done: () => boolean) {
    for (let i = 0; i < 200 && !done(); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await settle();
    }
    expect(done()).toBe(true);
  }
  async function create(overlap: OverlapPolicy) {
    const [a] = instances;
    const trigger = { type: 'schedule' as const, cron: '* * * * *', timezone: 'UTC' };
    const workflow = await a.commands.execute(
      new CreateWorkflowCommand(`waits ${overlap}`, trigger, [{ approval: 'Go on?' }], { overlap }),
    );
    await settle();
    return workflow.id;
  }
  async function runsOf(id: string) {
    return (await instances[0].queries.execute(new ListWorkflowRunsQuery(id, undefined, 100))).items;
  }

  it('skip: ticks while the run waits are recorded as skipped, once each; the tick after its end runs', async () => {
    const id = await create('skip');
    await advance(3 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);
    expect(eventsOfType(eventsFile, 'ScheduledTickSkipped').map((data) => data.scheduledFor)).toEqual([
      '2026-03-02T09:02:00.000Z',
      '2026-03-02T09:03:00.000Z',
    ]);

    const [first] = await runsOf(id);
    await instances[1].commands.execute(new DecideWorkflowApprovalCommand(id, first.id, 'approve'));
    await until(() => eventsOfType(eventsFile, 'WorkflowRunReleased').length === 1);
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:04:00.000Z']);
  });

  it('buffer_one: keeps the newest tick while the run waits and runs it once the run ends', async () => {
    const id = await create('buffer_one');
    await advance(3 * MINUTE);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z']);
    expect(eventsOfType(eventsFile, 'ScheduledTickBuffered').map((data) => data.scheduledFor)).toEqual([
      '2026-03-02T09:02:00.000Z',
      '2026-03-02T09:03:00.000Z',
    ]);

    const [first] = await runsOf(id);
    await instances[0].commands.execute(new DecideWorkflowApprovalCommand(id, first.id, 'reject', 'not now'));
    await until(() => scheduledRuns(eventsFile, id).length === 2);
    expect(scheduledRuns(eventsFile, id)).toEqual(['2026-03-02T09:01:00.000Z', '2026-03-02T09:03:00.000Z']);
    // The buffered run now waits in turn: the next tick is kept, not run.
    await advance(MINUTE);
    expect(scheduledRuns(eventsFile, id)).toHaveLength(2);
    expect(eventsOfType(eventsFile, 'ScheduledTickBuffered').at(-1)?.scheduledFor).toBe('2026-03-02T09:04:00.000Z');
  });
});
