import { given } from '../../../test/support/decider-specification';
import { WorkflowCreated, WorkflowEvent, WorkflowTriggered } from './workflow.events';
import { workflowDecider } from './workflow';

const workflowId = 'wf_1';
const at = '2026-01-01T00:00:00.000Z';
const now = new Date('2026-01-01T10:00:00.000Z');
const created = (policy: object): WorkflowCreated => ({
  type: 'WorkflowCreated',
  data: {
    id: workflowId,
    name: 'w',
    trigger: { type: 'schedule', cron: '* * * * *', timezone: 'UTC' },
    steps: [{ agent: 'a', action: 'x' }],
    createdAt: at,
    ...policy,
  },
});
const triggered = (runId: string, scheduledFor?: string, customer?: string): WorkflowTriggered => ({
  type: 'WorkflowTriggered',
  data: {
    workflowId,
    runId,
    input: customer ? { customer } : {},
    trigger: scheduledFor ? { type: 'schedule', scheduledFor } : { type: 'manual' },
    workflowVersion: 1,
    triggeredAt: at,
    ...(customer && { concurrencyKey: customer }),
  },
});
const tick = (runId: string, scheduledFor: string) =>
  ({ type: 'TriggerWorkflow', workflowId, runId, input: {}, trigger: { type: 'schedule', scheduledFor } }) as const;
const release = (runId: string) => ({ type: 'ReleaseWorkflowRun', workflowId, runId, nextRunId: 'r9' }) as const;
const released = (runId: string, admitted: string[]): WorkflowEvent => ({
  type: 'WorkflowRunReleased',
  data: { workflowId, runId, admitted, releasedAt: now.toISOString() },
});

describe('the workflow decider: overlap, maxConcurrentRuns and concurrency keys', () => {
  it('allow (the default) counts nothing and runs every tick', () => {
    const history = [created({}), triggered('r1', '2026-01-01T09:00:00.000Z')];
    given(workflowDecider, history)
      .when(tick('r2', '2026-01-01T09:01:00.000Z'), now)
      .then([
        {
          type: 'WorkflowTriggered',
          data: { ...triggered('r2', '2026-01-01T09:01:00.000Z').data, triggeredAt: now.toISOString() },
        },
      ]);
    given(workflowDecider, history).when(release('r1'), now).then([]);
  });

  it('skip records a tick that comes while a run is going, with the runs going', () => {
    const history = [created({ overlap: 'skip' }), triggered('r1', '2026-01-01T09:00:00.000Z')];
    given(workflowDecider, history)
      .when(tick('r2', '2026-01-01T09:01:00.000Z'), now)
      .then([
        {
          type: 'ScheduledTickSkipped',
          data: {
            workflowId,
            scheduledFor: '2026-01-01T09:01:00.000Z',
            reason: 'overlap',
            runIds: ['r1'],
            skippedAt: now.toISOString(),
          },
        },
      ]);
    // Once the run has ended, a tick runs.
    given(workflowDecider, [...history, released('r1', [])])
      .when(tick('r2', '2026-01-01T09:01:00.000Z'), now)
      .then([expect.objectContaining({ type: 'WorkflowTriggered' })]);
  });

  it('buffer_one keeps the newest tick and starts it when the last run ends, once', () => {
    const buffered = (scheduledFor: string, replaces: string | null): WorkflowEvent => ({
      type: 'ScheduledTickBuffered',
      data: { workflowId, scheduledFor, replaces, bufferedAt: at },
    });
    const history = [
      created({ overlap: 'buffer_one' }),
      triggered('r1', '2026-01-01T09:00:00.000Z'),
      buffered('2026-01-01T09:01:00.000Z', null),
    ];
    given(workflowDecider, history)
      .when(tick('r2', '2026-01-01T09:02:00.000Z'), now)
      .then([
        {
          ...buffered('2026-01-01T09:02:00.000Z', '2026-01-01T09:01:00.000Z'),
          data: expect.objectContaining({ bufferedAt: now.toISOString(), replaces: '2026-01-01T09:01:00.000Z' }),
        },
      ]);
    given(workflowDecider, history)
      .when(release('r1'), now)
      .then([
        released('r1', []),
        {
          type: 'WorkflowTriggered',
          data: { ...triggered('r9', '2026-01-01T09:01:00.000Z').data, triggeredAt: now.toISOString() },
        },
      ]);
    // A changed schedule drops the tick kept from the old one.
    const changed: WorkflowEvent = {
      type: 'WorkflowUpdated',
      data: {
        workflowId,
        changes: { trigger: { type: 'schedule', cron: '0 * * * *', timezone: 'UTC' } },
        version: 2,
        updatedAt: at,
      },
    };
    given(workflowDecider, [...history, changed])
      .when(release('r1'), now)
      .then([released('r1', [])]);
    given(workflowDecider, [...history, released('r1', []), triggered('r9', '2026-01-01T09:01:00.000Z')]).thenState(
      expect.objectContaining({ runs: { open: ['r9'], held: [], bufferedTick: null } }),
    );
  });

  it('maxConcurrentRuns holds runs beyond it in order and admits them as runs end; a held run may leave', () => {
    const history = [created({ maxConcurrentRuns: 2 }), ...['r1', 'r2', 'r3', 'r4'].map((id) => triggered(id))];
    given(workflowDecider, history).thenState(
      expect.objectContaining({ runs: { open: ['r1', 'r2'], held: ['r3', 'r4'], bufferedTick: null } }),
    );
    given(workflowDecider, history)
      .when(release('r2'), now)
      .then([released('r2', ['r3'])]);
    given(workflowDecider, history)
      .when(release('r4'), now)
      .then([released('r4', [])]);
    given(workflowDecider, [...history, released('r2', ['r3'])])
      .when(release('r2'), now)
      .then([]);
  });

  it('concurrency holds a run only behind runs of its own key, and the next of that key takes the freed slot', () => {
    const concurrency = { key: '{{input.customer}}', limit: 1 };
    const history = [
      created({ concurrency }),
      triggered('r1', undefined, 'acme'),
      triggered('r2', undefined, 'acme'),
      triggered('r3', undefined, 'globex'),
      triggered('r4', undefined, 'acme'),
    ];
    given(workflowDecider, history).thenState(
      expect.objectContaining({
        runs: expect.objectContaining({
          open: ['r1', 'r3'],
          held: ['r2', 'r4'],
          keys: { r1: 'acme', r2: 'acme', r3: 'globex', r4: 'acme' },
        }),
      }),
    );
    // The key is filled in from the input when the run is triggered.
    given(workflowDecider, [created({ concurrency })])
      .when(
        {
          type: 'TriggerWorkflow',
          workflowId,
          runId: 'r5',
          input: { customer: 'initech' },
          trigger: { type: 'manual' },
        },
        now,
      )
      .then([{ type: 'WorkflowTriggered', data: expect.objectContaining({ runId: 'r5', concurrencyKey: 'initech' }) }]);
    // A globex run ending frees nothing for acme; an acme run ending admits the oldest acme run only.
    given(workflowDecider, history)
      .when(release('r3'), now)
      .then([released('r3', [])]);
    given(workflowDecider, history)
      .when(release('r1'), now)
      .then([released('r1', ['r2'])]);
    given(workflowDecider, [...history, released('r1', ['r2'])]).thenState(
      expect.objectContaining({
        runs: expect.objectContaining({
          open: ['r3', 'r2'],
          held: ['r4'],
          keys: { r2: 'acme', r3: 'globex', r4: 'acme' },
        }),
      }),
    );
  });

  it('concurrency and maxConcurrentRuns together: a run needs a slot of the workflow and one of its key', () => {
    const history = [
      created({ concurrency: { key: '{{input.customer}}', limit: 2 }, maxConcurrentRuns: 2 }),
      triggered('r1', undefined, 'acme'),
      triggered('r2', undefined, 'globex'),
      triggered('r3', undefined, 'initech'),
      triggered('r4', undefined, 'acme'),
    ];
    given(workflowDecider, history).thenState(
      expect.objectContaining({ runs: expect.objectContaining({ open: ['r1', 'r2'], held: ['r3', 'r4'] }) }),
    );
    given(workflowDecider, history)
      .when(release('r2'), now)
      .then([released('r2', ['r3'])]);
  });

  it('a backfill decides its ticks in order under the policy, and leaves the schedule its own last tick', () => {
    const backfill = {
      type: 'BackfillWorkflow' as const,
      workflowId,
      ticks: ['08:00', '08:01', '08:02'].map((hm, i) => ({ scheduledFor: `2026-01-01T${hm}:00.000Z`, runId: `b${i}` })),
    };
    const history = [created({ overlap: 'skip' }), triggered('r1', '2026-01-01T09:00:00.000Z'), released('r1', [])];
    const ran: WorkflowEvent = {
      type: 'WorkflowTriggered',
      data: {
        ...triggered('b0', '2026-01-01T08:00:00.000Z').data,
        trigger: { type: 'schedule', scheduledFor: '2026-01-01T08:00:00.000Z', backfill: true },
        triggeredAt: now.toISOString(),
      },
    };
    const skipped = (scheduledFor: string, runIds = ['b0']): WorkflowEvent => ({
      type: 'ScheduledTickSkipped',
      data: { workflowId, scheduledFor, reason: 'overlap', runIds, skippedAt: now.toISOString() },
    });
    given(workflowDecider, history)
      .when(backfill, now)
      .then([ran, skipped('2026-01-01T08:01:00.000Z'), skipped('2026-01-01T08:02:00.000Z')]);
    given(workflowDecider, [...history, ran]).thenState(
      expect.objectContaining({ lastScheduledFor: '2026-01-01T09:00:00.000Z' }),
    );
    // A tick the schedule keeps under buffer_one is newer than the backfill's: it stays kept.
    const buffering = [
      created({ overlap: 'buffer_one' }),
      triggered('r1', '2026-01-01T09:00:00.000Z'),
      {
        type: 'ScheduledTickBuffered',
        data: { workflowId, scheduledFor: '2026-01-01T09:01:00.000Z', replaces: null, bufferedAt: at },
      },
    ] as WorkflowEvent[];
    given(workflowDecider, buffering)
      .when({ ...backfill, ticks: backfill.ticks.slice(0, 1) }, now)
      .then([skipped('2026-01-01T08:00:00.000Z', ['r1'])]);
    // A manual workflow has no schedule to backfill.
    given(workflowDecider, [
      { ...created({}), data: { ...created({}).data, trigger: { type: 'manual' } } } as WorkflowEvent,
    ])
      .when(backfill, now)
      .thenRefuses('conflict');
  });
});
