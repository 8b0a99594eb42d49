import { CommandBus } from '@nestjs/cqrs';
import { TriggerScheduledRunsCommand } from '../../src/workflows/scheduling/trigger-scheduled-runs.command';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestClock } from '../support/test-clock';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Backfills over real HTTP, on both stores, with runs whose model call hangs until the test cancels them (the
 * scripted model server, a test double), under a test clock: an hourly schedule, and a window of four ticks
 * (09:00 to 12:00 UTC on 2026-03-01) seen at 12:30.
 */
describe.each(storeFixtures().slice(0, 2))('workflow backfill (%s)', (storeName, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture | undefined;
  let api: TestApp;
  const clock = new TestClock();

  beforeEach(async () => {
    clock.set('2026-03-01T12:30:00.000Z');
    model = await startScriptedOpenAIServer(() => ({ kind: 'hang' }));
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    if (storeName !== 'sqlite') fixture = await createFixture();
    api = await startTestApp({ env, clock, ...(fixture && { fixture }) });
    expect((await api.request('POST', '/v1/agents', { name: 'slow', model: 'openai-compatible/m' })).status).toBe(201);
  });
  afterEach(async () => {
    await api.close();
    await fixture?.stop();
    fixture = undefined;
    await model.close();
  });

  const hourly = { type: 'schedule', cron: '0 * * * *' };
  const window = { from: '2026-03-01T09:00:00Z', to: '2026-03-01T12:00:00Z' };
  const hours = ['09', '10', '11', '12'].map((hour) => `2026-03-01T${hour}:00:00.000Z`);
  async function create(fields: object): Promise<string> {
    const steps = [{ agent: 'slow', action: 'work' }];
    const created = await api.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps, ...fields });
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const backfill = (workflowId: string, body: object = window) =>
    api.request('POST', `/v1/workflows/${workflowId}/backfill`, body);
  const runs = async (workflowId: string) =>
    (await api.request('GET', `/v1/workflows/${workflowId}/runs?limit=100`)).body.runs as any[];
  const cancel = (workflowId: string, runId: string) =>
    api.request('POST', `/v1/workflows/${workflowId}/runs/${runId}/cancel`);

  it('allow: a run for every tick of the window, each with its tick; the schedule goes on as before', async () => {
    const workflowId = await create({ trigger: hourly });
    const done = await backfill(workflowId);
    expect(done.status).toBe(202);
    expect(done.body).toEqual({
      workflowId,
      from: '2026-03-01T09:00:00.000Z',
      to: '2026-03-01T12:00:00.000Z',
      ticks: hours.map((scheduledFor) => ({
        scheduledFor,
        outcome: 'triggered',
        runId: expect.stringMatching(/^wfrun_/),
      })),
    });
    const listed = await runs(workflowId);
    expect(listed.map((run) => run.trigger).sort((a, b) => a.scheduledFor.localeCompare(b.scheduledFor))).toEqual(
      hours.map((scheduledFor) => ({ type: 'schedule', scheduledFor, backfill: true })),
    );
    expect(listed.map((run) => run.id).sort()).toEqual(done.body.ticks.map((tick: any) => tick.runId).sort());
    // The schedule's own next tick still runs: a backfill does not move its last tick.
    clock.set('2026-03-01T13:00:00.000Z');
    const scheduledFor = new Date('2026-03-01T13:00:00.000Z');
    const live = await api.app.get(CommandBus).execute(new TriggerScheduledRunsCommand([{ workflowId, scheduledFor }]));
    expect(live).toMatchObject({ recorded: 1, refused: 0 });
    await eventually(async () => expect(await runs(workflowId)).toHaveLength(5));
    for (const run of await runs(workflowId)) await cancel(workflowId, run.id);
  });

  it('skip: the first tick runs and the others, which come while it goes, are skipped', async () => {
    const workflowId = await create({ trigger: hourly, overlap: 'skip' });
    const done = await backfill(workflowId);
    expect(done.body.ticks.map((tick: any) => tick.outcome)).toEqual(['triggered', 'skipped', 'skipped', 'skipped']);
    expect((await runs(workflowId)).map((run) => run.trigger.scheduledFor)).toEqual([hours[0]]);
    const events = (await api.request('GET', `/v1/workflows/${workflowId}/events`)).body.events;
    const skipped = events.filter((event: any) => event.type === 'ScheduledTickSkipped');
    expect(skipped.map((event: any) => event.data.scheduledFor)).toEqual(hours.slice(1));
    await cancel(workflowId, done.body.ticks[0].runId);
  });

  it('buffer_one: the first tick runs, the newest is kept and runs once the first has ended', async () => {
    const workflowId = await create({ trigger: hourly, overlap: 'buffer_one' });
    const done = await backfill(workflowId);
    expect(done.body.ticks.map((tick: any) => tick.outcome)).toEqual(['triggered', 'buffered', 'buffered', 'buffered']);
    expect(await runs(workflowId)).toHaveLength(1);
    await cancel(workflowId, done.body.ticks[0].runId);
    const byTick = async () =>
      (await runs(workflowId)).sort((a, b) => a.trigger.scheduledFor.localeCompare(b.trigger.scheduledFor));
    await eventually(async () =>
      expect((await byTick()).map((run) => [run.trigger.scheduledFor, run.status])).toEqual([
        [hours[0], 'cancelled'],
        [hours[3], 'running'],
      ]),
    );
    const last = (await byTick())[1];
    await cancel(workflowId, last.id);
  });

  it('maxConcurrentRuns: the ticks beyond the limit wait, queued, in order', async () => {
    const workflowId = await create({ trigger: hourly, maxConcurrentRuns: 2 });
    const done = await backfill(workflowId);
    expect(done.body.ticks.map((tick: any) => tick.outcome)).toEqual([
      'triggered',
      'triggered',
      'triggered',
      'triggered',
    ]);
    await eventually(async () => {
      const byTick = (await runs(workflowId)).sort((a, b) =>
        a.trigger.scheduledFor.localeCompare(b.trigger.scheduledFor),
      );
      expect(byTick.map((run) => run.status)).toEqual(['running', 'running', 'queued', 'queued']);
    });
    for (const tick of done.body.ticks) await cancel(workflowId, tick.runId);
  });

  it('refuses a window it cannot run, with the reason, and records nothing', async () => {
    const workflowId = await create({ trigger: hourly });
    expectProblem(await backfill(workflowId, { from: 'yesterday', to: window.to }), 400);
    expectProblem(await backfill(workflowId, { from: window.from }), 400);
    const backwards = await backfill(workflowId, { from: window.to, to: window.from });
    expectProblem(backwards, 422);
    expect(backwards.body.errors).toEqual([{ path: 'to', message: 'must be after from' }]);
    const future = await backfill(workflowId, { from: window.from, to: '2026-03-01T14:00:00Z' });
    expectProblem(future, 422);
    expect(future.body.errors[0].message).toContain('must not be after now');
    const everyMinute = await create({ trigger: { type: 'schedule', cron: '* * * * *' } });
    const tooMany = await backfill(everyMinute, { from: '2026-02-28T12:00:00Z', to: window.to });
    expectProblem(tooMany, 422);
    expect(tooMany.body.errors[0].message).toContain('more than 1000 ticks');
    const manual = await create({ trigger: { type: 'manual' } });
    expectProblem(await backfill(manual), 409);
    expectProblem(await backfill('wf_01JDQ8ZK5N2B3C4D5E6F7G8H9J'), 404);
    for (const id of [workflowId, everyMinute, manual]) expect(await runs(id)).toEqual([]);
  });
});
