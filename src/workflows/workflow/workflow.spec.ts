import { given } from '../../../test/support/decider-specification';
import {
  ScheduledRunsSkipped,
  WorkflowCreated,
  WorkflowPaused,
  WorkflowResumed,
  WorkflowTriggered,
  WorkflowUpdated,
  WorkflowArchived,
} from './workflow.events';
import { WorkflowAggregate, WorkflowTrigger } from './workflow.state';
import { workflowDecider } from './workflow';

const now = new Date('2026-01-01T00:00:00.000Z');
const created: WorkflowCreated = {
  type: 'WorkflowCreated',
  data: {
    id: 'wf_1',
    name: 'digest',
    trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
    steps: [{ agent: 'researcher', action: 'search' }],
    createdAt: now.toISOString(),
  },
};
const manual: WorkflowTrigger = { type: 'manual' };
const createdManual: WorkflowCreated = { type: 'WorkflowCreated', data: { ...created.data, trigger: manual } };
const triggered = (runId: string, at: string): WorkflowTriggered => ({
  type: 'WorkflowTriggered',
  data: {
    workflowId: 'wf_1',
    runId,
    input: { topic: 'ai' },
    trigger: { type: 'manual' },
    workflowVersion: 1,
    triggeredAt: at,
  },
});
const ticked = (runId: string, scheduledFor: string, at = scheduledFor): WorkflowTriggered => ({
  type: 'WorkflowTriggered',
  data: {
    workflowId: 'wf_1',
    runId,
    input: {},
    trigger: { type: 'schedule', scheduledFor },
    workflowVersion: 1,
    triggeredAt: at,
  },
});
const paused = (at: string): WorkflowPaused => ({ type: 'WorkflowPaused', data: { workflowId: 'wf_1', pausedAt: at } });
const resumed = (at: string): WorkflowResumed => ({
  type: 'WorkflowResumed',
  data: { workflowId: 'wf_1', resumedAt: at },
});
const skipped = (first: string, last: string, count: number | null, at: string): ScheduledRunsSkipped => ({
  type: 'ScheduledRunsSkipped',
  data: { workflowId: 'wf_1', first, last, count, skippedAt: at },
});
const tick = (runId: string, scheduledFor: string) =>
  ({
    type: 'TriggerWorkflow',
    workflowId: 'wf_1',
    runId,
    input: {},
    trigger: { type: 'schedule', scheduledFor },
  }) as const;
const skip = (first: string, last: string, count: number | null = 1) =>
  ({ type: 'SkipScheduledRuns', workflowId: 'wf_1', first, last, count }) as const;

describe('workflow decider', () => {
  it('creates a workflow', () => {
    const { id, name, trigger, steps } = created.data;
    given(workflowDecider, []).when({ type: 'CreateWorkflow', id, name, trigger, steps }, now).then([created]);
  });

  it('refuses to create a workflow twice', () => {
    const { id, name, trigger, steps } = created.data;
    given(workflowDecider, [created])
      .when({ type: 'CreateWorkflow', id, name, trigger, steps })
      .thenRefuses('conflict');
  });

  it('records a manual trigger with its run id and input', () => {
    const at = new Date('2026-01-02T10:00:00.000Z');
    given(workflowDecider, [created])
      .when(
        {
          type: 'TriggerWorkflow',
          workflowId: 'wf_1',
          runId: 'wfrun_1',
          input: { topic: 'ai' },
          trigger: { type: 'manual' },
        },
        at,
      )
      .then([triggered('wfrun_1', at.toISOString())]);
  });

  it('refuses to trigger a workflow that does not exist', () => {
    given(workflowDecider, [])
      .when({ type: 'TriggerWorkflow', workflowId: 'wf_1', runId: 'wfrun_1', input: {}, trigger: { type: 'manual' } })
      .thenRefuses('not_found');
  });

  it('starts active with no last run, and moves lastRun to the latest trigger', () => {
    const fresh: WorkflowAggregate = {
      ...created.data,
      status: 'active',
      lastRun: null,
      version: 1,
      lastScheduledFor: null,
      activeSince: now.toISOString(),
    };
    given(workflowDecider, [created]).thenState(fresh);
    given(workflowDecider, [
      created,
      triggered('wfrun_1', '2026-01-02T10:00:00.000Z'),
      triggered('wfrun_2', '2026-01-03T10:00:00.000Z'),
    ]).thenState({ ...fresh, lastRun: '2026-01-03T10:00:00.000Z' });
  });

  describe('schedule ticks', () => {
    const monday = '2026-01-05T08:00:00.000Z';
    const tuesday = '2026-01-06T08:00:00.000Z';

    it('records a tick as a run with its scheduledFor, and remembers it', () => {
      const at = new Date('2026-01-05T08:00:00.120Z');
      given(workflowDecider, [created])
        .when(tick('wfrun_1', monday), at)
        .then([ticked('wfrun_1', monday, at.toISOString())]);
      given(workflowDecider, [created, ticked('wfrun_1', monday)]).thenState({
        ...created.data,
        status: 'active',
        lastRun: monday,
        version: 1,
        lastScheduledFor: monday,
        activeSince: now.toISOString(),
      });
    });

    it('refuses a tick it has already recorded, whichever instance sends it', () => {
      given(workflowDecider, [created, ticked('wfrun_1', monday)])
        .when(tick('wfrun_2', monday))
        .thenRefuses('conflict', /already recorded/);
    });

    it('refuses a tick older than the last one recorded, and accepts the next', () => {
      given(workflowDecider, [created, ticked('wfrun_2', tuesday)])
        .when(tick('wfrun_3', monday))
        .thenRefuses('conflict', /already recorded/);
      given(workflowDecider, [created, ticked('wfrun_1', monday)])
        .when(tick('wfrun_2', tuesday), new Date(tuesday))
        .then([ticked('wfrun_2', tuesday)]);
    });

    it('compares ticks as instants whatever form their times are written in', () => {
      given(workflowDecider, [created, ticked('wfrun_1', monday)])
        .when(tick('wfrun_2', '2026-01-05T09:00:00+01:00'))
        .thenRefuses('conflict', /already recorded/);
      given(workflowDecider, [created, ticked('wfrun_1', '2026-01-05T08:00:00Z')])
        .when(tick('wfrun_2', '2026-01-05T07:59:59.999Z'))
        .thenRefuses('conflict', /already recorded/);
      given(workflowDecider, [created, ticked('wfrun_1', '2026-01-05T09:00:00+01:00')])
        .when(tick('wfrun_2', tuesday), new Date(tuesday))
        .then([ticked('wfrun_2', tuesday)]);
    });

    it('keeps counting ticks after manual runs', () => {
      given(workflowDecider, [created, ticked('wfrun_1', monday), triggered('wfrun_2', '2026-01-05T12:00:00.000Z')])
        .when(tick('wfrun_3', monday))
        .thenRefuses('conflict', /already recorded/);
    });

    it('refuses a tick from before the workflow existed', () => {
      given(workflowDecider, [created])
        .when(tick('wfrun_1', '2025-12-31T08:00:00.000Z'))
        .thenRefuses('conflict', /not active/);
    });

    it('refuses ticks for a workflow without a schedule', () => {
      given(workflowDecider, [createdManual])
        .when(tick('wfrun_1', monday))
        .thenRefuses('conflict', /no schedule/);
      given(workflowDecider, [createdManual])
        .when(skip(monday, monday))
        .thenRefuses('conflict', /no schedule/);
    });

    it('refuses a tick for a workflow that does not exist', () => {
      given(workflowDecider, []).when(tick('wfrun_1', monday)).thenRefuses('not_found');
    });
  });

  describe('pause and resume', () => {
    const pausedAt = '2026-01-02T00:00:00.000Z';
    const resumedAt = '2026-01-07T00:00:00.000Z';

    it('pauses an active workflow, and pausing again decides nothing', () => {
      given(workflowDecider, [created])
        .when({ type: 'PauseWorkflow', workflowId: 'wf_1' }, new Date(pausedAt))
        .then([paused(pausedAt)]);
      given(workflowDecider, [created, paused(pausedAt)])
        .when({ type: 'PauseWorkflow', workflowId: 'wf_1' })
        .then([]);
    });

    it('resumes a paused workflow, and resuming an active one decides nothing', () => {
      given(workflowDecider, [created, paused(pausedAt)])
        .when({ type: 'ResumeWorkflow', workflowId: 'wf_1' }, new Date(resumedAt))
        .then([resumed(resumedAt)]);
      given(workflowDecider, [created]).when({ type: 'ResumeWorkflow', workflowId: 'wf_1' }).then([]);
    });

    it('refuses to pause or resume a workflow that does not exist', () => {
      given(workflowDecider, []).when({ type: 'PauseWorkflow', workflowId: 'wf_1' }).thenRefuses('not_found');
      given(workflowDecider, []).when({ type: 'ResumeWorkflow', workflowId: 'wf_1' }).thenRefuses('not_found');
    });

    it('is paused, then active since its resumption', () => {
      given(workflowDecider, [created, paused(pausedAt)]).thenState(
        expect.objectContaining({ status: 'paused', activeSince: now.toISOString() }),
      );
      given(workflowDecider, [created, paused(pausedAt), resumed(resumedAt)]).thenState(
        expect.objectContaining({ status: 'active', activeSince: resumedAt }),
      );
    });

    it('refuses schedule ticks while paused, but not manual triggers', () => {
      given(workflowDecider, [created, paused(pausedAt)])
        .when(tick('wfrun_1', '2026-01-05T08:00:00.000Z'))
        .thenRefuses('conflict', /paused/);
      given(workflowDecider, [created, paused(pausedAt)])
        .when(
          { type: 'TriggerWorkflow', workflowId: 'wf_1', runId: 'wfrun_1', input: { topic: 'ai' }, trigger: manual },
          new Date('2026-01-05T10:00:00.000Z'),
        )
        .then([triggered('wfrun_1', '2026-01-05T10:00:00.000Z')]);
    });

    it('after resuming, refuses the ticks that fell while paused and runs the next', () => {
      const history = [created, paused(pausedAt), resumed(resumedAt)];
      given(workflowDecider, history)
        .when(tick('wfrun_1', '2026-01-05T08:00:00.000Z'))
        .thenRefuses('conflict', /not active/);
      given(workflowDecider, history)
        .when(tick('wfrun_1', '2026-01-07T08:00:00.000Z'), new Date('2026-01-07T08:00:00.000Z'))
        .then([ticked('wfrun_1', '2026-01-07T08:00:00.000Z')]);
    });
  });

  describe('skipped ticks', () => {
    const first = '2026-01-05T08:00:00.000Z';
    const last = '2026-01-08T08:00:00.000Z';
    const at = '2026-01-09T09:00:00.000Z';

    it('records a range of missed ticks in one event and counts them as handled', () => {
      given(workflowDecider, [created])
        .when(skip(first, last, 4), new Date(at))
        .then([skipped(first, last, 4, at)]);
      given(workflowDecider, [created, skipped(first, last, 4, at)])
        .when(tick('wfrun_1', last))
        .thenRefuses('conflict', /already recorded/);
      given(workflowDecider, [created, skipped(first, last, 4, at)])
        .when(tick('wfrun_1', '2026-01-09T08:00:00.000Z'), new Date(at))
        .then([ticked('wfrun_1', '2026-01-09T08:00:00.000Z', at)]);
    });

    it('moves lastScheduledFor but not lastRun', () => {
      given(workflowDecider, [created, skipped(first, last, null, at)]).thenState(
        expect.objectContaining({ lastRun: null, lastScheduledFor: last }),
      );
    });

    it('refuses a range already recorded (another instance caught up first), or backwards, or while paused', () => {
      given(workflowDecider, [created, skipped(first, last, 4, at)])
        .when(skip(first, last, 4))
        .thenRefuses('conflict');
      given(workflowDecider, [created]).when(skip(last, first)).thenRefuses('unprocessable');
      given(workflowDecider, [created, paused('2026-01-02T00:00:00.000Z')])
        .when(skip(first, last))
        .thenRefuses('conflict', /paused/);
    });
  });

  describe('changes and archiving', () => {
    const changedAt = '2026-01-03T10:00:00.000Z';
    const updated: WorkflowUpdated = {
      type: 'WorkflowUpdated',
      data: {
        workflowId: 'wf_1',
        changes: { trigger: { type: 'schedule', cron: '*/5 * * * *', timezone: 'UTC' } },
        version: 2,
        updatedAt: changedAt,
      },
    };
    const archived: WorkflowArchived = {
      type: 'WorkflowArchived',
      data: { workflowId: 'wf_1', version: 3, archivedAt: changedAt },
    };
    const update = (changes: object, baseVersion = 1, ifMatch?: number[]) =>
      ({ type: 'UpdateWorkflow', workflowId: 'wf_1', changes, baseVersion, ifMatch }) as const;

    it('records the changed fields with the next version', () => {
      given(workflowDecider, [created]).when(update(updated.data.changes), new Date(changedAt)).then([updated]);
    });

    it('evolves a new schedule into one whose ticks are due from the change only', () => {
      given(workflowDecider, [created, updated]).thenState(
        expect.objectContaining({ trigger: updated.data.changes.trigger, version: 2, activeSince: changedAt }),
      );
      given(workflowDecider, [created, updated]).when(tick('wfrun_1', changedAt)).thenRefuses('conflict');
    });

    it('records runs with the version they were triggered at', () => {
      const at = new Date('2026-01-04T10:00:00.000Z');
      given(workflowDecider, [createdManual, updated])
        .when(
          { type: 'TriggerWorkflow', workflowId: 'wf_1', runId: 'wfrun_1', input: {}, trigger: { type: 'manual' } },
          at,
        )
        .then([
          {
            type: 'WorkflowTriggered',
            data: {
              workflowId: 'wf_1',
              runId: 'wfrun_1',
              input: {},
              trigger: { type: 'manual' },
              workflowVersion: 2,
              triggeredAt: at.toISOString(),
            },
          },
        ]);
    });

    it('records nothing for an update that changes nothing; refuses an older If-Match or a stale merge', () => {
      given(workflowDecider, [created]).when(update({})).then([]);
      given(workflowDecider, [created, updated])
        .when(update({ name: 'x' }, 2, [1]))
        .thenRefuses('precondition_failed');
      given(workflowDecider, [created, updated])
        .when(update({ name: 'x' }, 1))
        .thenRefuses('conflict', /meanwhile/);
    });

    it('keeps its version when paused and resumed', () => {
      given(workflowDecider, [created, paused(changedAt), resumed(changedAt)]).thenState(
        expect.objectContaining({ status: 'active', version: 1 }),
      );
    });

    it('archives with the next version; archiving again changes nothing', () => {
      given(workflowDecider, [created, updated])
        .when({ type: 'ArchiveWorkflow', workflowId: 'wf_1' }, new Date(changedAt))
        .then([archived]);
      given(workflowDecider, [created, updated, archived])
        .when({ type: 'ArchiveWorkflow', workflowId: 'wf_1', ifMatch: [1] })
        .then([]);
      given(workflowDecider, [created, updated])
        .when({ type: 'ArchiveWorkflow', workflowId: 'wf_1', ifMatch: [1] })
        .thenRefuses('precondition_failed');
    });

    it('refuses a trigger, a tick, a pause, a resume or a change of an archived workflow', () => {
      const history = [created, updated, archived];
      given(workflowDecider, history)
        .when({ type: 'TriggerWorkflow', workflowId: 'wf_1', runId: 'wfrun_1', input: {}, trigger: manual })
        .thenRefuses('conflict', /archived/);
      given(workflowDecider, history).when(tick('wfrun_1', '2026-01-05T00:00:00.000Z')).thenRefuses('conflict');
      given(workflowDecider, history).when({ type: 'PauseWorkflow', workflowId: 'wf_1' }).thenRefuses('conflict');
      given(workflowDecider, history).when({ type: 'ResumeWorkflow', workflowId: 'wf_1' }).thenRefuses('conflict');
      given(workflowDecider, history)
        .when(update({ name: 'x' }, 3))
        .thenRefuses('conflict');
    });
  });
});

describe('workflow snapshots', () => {
  const fold = (events: Parameters<typeof workflowDecider.evolve>[1][]) =>
    events.reduce(workflowDecider.evolve, workflowDecider.initialState);
  const { fromJson } = workflowDecider.snapshot!;

  it('restores the state it was taken from, after JSON', () => {
    const state = fold([
      created,
      ticked('wfrun_1', '2026-01-05T08:00:00.000Z'),
      paused('2026-01-06T00:00:00.000Z'),
      resumed('2026-01-07T00:00:00.000Z'),
    ]);
    expect(fromJson(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(fromJson(null)).toBeNull();
  });

  it('stays the same size however often the workflow is triggered', () => {
    const triggers = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        triggered(`wfrun_${i}`, new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString()),
      );
    const size = (n: number) => JSON.stringify(fold([createdManual, ...triggers(n)])).length;
    expect(size(1000)).toBe(size(1));
  });

  it('refuses to restore what is not the state of a workflow', () => {
    const state = fold([created])!;
    for (const broken of [
      {},
      'x',
      3,
      { ...state, version: '1' },
      { ...state, steps: null },
      { ...state, trigger: null },
    ])
      expect(() => fromJson(broken)).toThrow('not the state of a workflow');
  });
});
