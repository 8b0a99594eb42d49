import { join } from 'node:path';
import { SchedulerRegistry } from '@nestjs/schedule';
import Database from 'better-sqlite3';
import { WorkflowScheduler, scheduleJobName } from '../../src/workflows/scheduling/workflow-scheduler';
import { TestApp, startTestApp } from '../support/test-app';

/** Pause, resume and nextRunAt as a client sees them. The clock starts on Sunday 2026-03-01 12:00 UTC. */
describe('scheduling over HTTP', () => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp();
    await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/gpt-4o-mini' });
  });
  afterEach(() => api.close());

  const steps = [{ agent: 'researcher', action: 'search' }];
  const weekdays = { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' };
  const create = async (trigger: object = weekdays) =>
    (await api.request('POST', '/v1/workflows', { name: 'digest', trigger, steps })).body;
  const listed = async () => (await api.request('GET', '/v1/workflows')).body.workflows;
  const eventCount = (type: string) => {
    const db = new Database(join(api.dataDir, 'events.sqlite'), { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM events WHERE type = ?').get(type) as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it('shows nextRunAt in UTC on create, on GET and in the list, in the schedule time zone', async () => {
    const workflow = await create();
    expect(workflow.nextRunAt).toBe('2026-03-02T08:00:00.000Z'); // Monday 09:00 in Berlin (CET)
    expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body.nextRunAt).toBe(workflow.nextRunAt);
    expect((await listed())[0]).toMatchObject({ id: workflow.id, nextRunAt: workflow.nextRunAt });

    api.clock.set('2026-03-02T10:00:00.000Z');
    expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body.nextRunAt).toBe('2026-03-03T08:00:00.000Z');
    api.clock.set('2026-03-27T10:00:00.000Z'); // Friday; the next is Monday 30 March, after the change to CEST
    expect((await listed())[0].nextRunAt).toBe('2026-03-30T07:00:00.000Z');
  });

  it('defaults to UTC and has no nextRunAt without a schedule', async () => {
    expect((await create({ type: 'schedule', cron: '*/15 * * * *' })).nextRunAt).toBe('2026-03-01T12:15:00.000Z');
    expect((await create({ type: 'manual' })).nextRunAt).toBeNull();
  });

  it('pauses: 200 with the whole workflow, paused, without nextRunAt, listed so; pausing again changes nothing', async () => {
    const workflow = await create();
    api.clock.advance(60_000);
    const paused = await api.request('POST', `/v1/workflows/${workflow.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ ...workflow, status: 'paused', nextRunAt: null });
    expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body).toEqual(paused.body);
    expect((await listed())[0]).toMatchObject({ status: 'paused', nextRunAt: null });

    const again = await api.request('POST', `/v1/workflows/${workflow.id}/pause`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paused.body);
    expect(eventCount('WorkflowPaused')).toBe(1);
  });

  it('resumes: 200, active again with its nextRunAt; resuming again changes nothing', async () => {
    const workflow = await create();
    await api.request('POST', `/v1/workflows/${workflow.id}/pause`);
    const resumed = await api.request('POST', `/v1/workflows/${workflow.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual(workflow);
    expect((await listed())[0]).toMatchObject({ status: 'active', nextRunAt: '2026-03-02T08:00:00.000Z' });

    const again = await api.request('POST', `/v1/workflows/${workflow.id}/resume`);
    expect(again.body).toEqual(workflow);
    expect(eventCount('WorkflowResumed')).toBe(1);
  });

  it('archiving drops the schedule: no cron job, no nextRunAt, even from the paused state', async () => {
    const registry = api.app.get(SchedulerRegistry);
    const scheduler = api.app.get(WorkflowScheduler);
    const active = await create();
    const paused = await create({ type: 'schedule', cron: '*/5 * * * *' });
    await api.request('POST', `/v1/workflows/${paused.id}/pause`);
    expect(scheduler.isScheduled(active.id)).toBe(true);
    expect(registry.getCronJobs().size).toBe(1);

    for (const workflow of [active, paused]) {
      const archived = await api.request('DELETE', `/v1/workflows/${workflow.id}`);
      expect(archived.body).toMatchObject({ status: 'archived', nextRunAt: null });
      expect(scheduler.isScheduled(workflow.id)).toBe(false);
    }
    expect((await api.request('POST', `/v1/workflows/${paused.id}/resume`)).status).toBe(409);
    expect(registry.getCronJobs().size).toBe(0);
  });

  it('a changed schedule moves the cron job and nextRunAt', async () => {
    const workflow = await create();
    const changed = await api.request('PATCH', `/v1/workflows/${workflow.id}`, { trigger: { cron: '0 10 * * 1-5' } });
    expect(changed.body.nextRunAt).toBe('2026-03-02T09:00:00.000Z');
    const jobs = api.app.get(SchedulerRegistry).getCronJobs();
    expect([...jobs.keys()]).toEqual([scheduleJobName('0 10 * * 1-5', workflow.trigger.timezone)]);
    expect([...jobs.values()][0].cronTime.source).toBe('0 10 * * 1-5');
  });

  it('still triggers a paused workflow by hand', async () => {
    const workflow = await create();
    await api.request('POST', `/v1/workflows/${workflow.id}/pause`);
    api.clock.advance(60_000);
    const run = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: { topic: 'cron' } });
    expect(run.status).toBe(202);
    expect(run.body.trigger).toEqual({ type: 'manual' });
    expect((await listed())[0]).toMatchObject({ status: 'paused', lastRun: run.body.createdAt });
  });

  it('pauses and resumes a manual workflow too', async () => {
    const workflow = await create({ type: 'manual' });
    expect((await api.request('POST', `/v1/workflows/${workflow.id}/pause`)).body.status).toBe('paused');
    expect((await api.request('POST', `/v1/workflows/${workflow.id}/resume`)).body.status).toBe('active');
  });

  it.each(['pause', 'resume'])(
    'answers %s of an unknown workflow with a 404, of a malformed id with a 400',
    async (action) => {
      const unknown = await api.request('POST', `/v1/workflows/wf_01ARZ3NDEKTSV4RRFFQ69G5FAV/${action}`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(unknown.body.type).toBe('/problems/not-found');

      const malformed = await api.request('POST', `/v1/workflows/agent_01ARZ3NDEKTSV4RRFFQ69G5FAV/${action}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({
        type: '/problems/validation-error',
        errors: [{ path: 'workflowId', message: expect.stringMatching(/wf_/) }],
      });
    },
  );
});
