import { CommandBus } from '@nestjs/cqrs';
import { TriggerScheduledRunsCommand } from '../../src/workflows/scheduling/trigger-scheduled-runs.command';
import { eventually } from '../support/eventually';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestClock } from '../support/test-clock';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

/**
 * Overlap policies and maxConcurrentRuns, over real HTTP, with runs whose model call hangs until the test ends them
 * (a cancel), against the scripted model server. Ticks are sent as the scheduler sends them, under a test clock
 * (Sunday 2026-03-01 12:00 UTC); on the EventStoreDB test double, two instances share the store: one triggers, the
 * other ends runs, so every decision is the log's, not one process's memory.
 */
describe.each(storeFixtures().slice(0, 2))('overlap and maxConcurrentRuns (%s)', (storeName, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture | undefined;
  let api: TestApp;
  let other: TestApp;
  const clock = new TestClock();

  beforeEach(async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    model = await startScriptedOpenAIServer(() => ({ kind: 'hang' }));
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    if (storeName === 'sqlite') {
      api = await startTestApp({ env, clock });
      other = api;
    } else {
      fixture = await createFixture();
      api = await startTestApp({ env, clock, fixture });
      other = await startTestApp({ env, clock, fixture });
    }
    expect((await api.request('POST', '/v1/agents', { name: 'slow', model: 'openai-compatible/m' })).status).toBe(201);
  });
  afterEach(async () => {
    await Promise.all([api.close(), other !== api && other.close()]);
    await fixture?.stop();
    fixture = undefined;
    await model.close();
  });

  const everyMinute = { type: 'schedule', cron: '* * * * *' };
  const steps = [{ agent: 'slow', action: 'work' }];
  async function create(fields: object): Promise<string> {
    const created = await api.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps, ...fields });
    expect(created.status).toBe(201);
    await eventually(async () =>
      expect((await other.request('GET', `/v1/workflows/${created.body.id}`)).status).toBe(200),
    );
    return created.body.id;
  }
  const tick = (workflowId: string, minute: number) => {
    const scheduledFor = new Date(Date.UTC(2026, 2, 1, 12, minute));
    clock.set(scheduledFor);
    return api.app.get(CommandBus).execute(new TriggerScheduledRunsCommand([{ workflowId, scheduledFor }]));
  };
  const runs = async (workflowId: string) =>
    (await other.request('GET', `/v1/workflows/${workflowId}/runs?limit=100`)).body.runs as any[];
  const statuses = async (workflowId: string) => (await runs(workflowId)).map((run) => run.status);
  const events = async (workflowId: string) =>
    (await api.request('GET', `/v1/workflows/${workflowId}/events?limit=100`)).body.events as any[];
  const cancel = (workflowId: string, runId: string) =>
    other.request('POST', `/v1/workflows/${workflowId}/runs/${runId}/cancel`);

  it('overlap skip: a tick while a run is going is recorded as skipped with the reason; after its end, ticks run', async () => {
    const id = await create({ trigger: everyMinute, overlap: 'skip' });
    expect((await tick(id, 1)).recorded).toBe(1);
    await eventually(async () => expect(await statuses(id)).toEqual(['running']));
    const [first] = await runs(id);

    await tick(id, 2);
    await eventually(async () => {
      const skipped = (await events(id)).filter((event) => event.type === 'ScheduledTickSkipped');
      expect(skipped.map((event) => event.data)).toEqual([
        expect.objectContaining({ scheduledFor: '2026-03-01T12:02:00.000Z', reason: 'overlap', runIds: [first.id] }),
      ]);
    });
    expect(await runs(id)).toHaveLength(1);

    expect((await cancel(id, first.id)).status).toBe(200);
    await eventually(async () =>
      expect((await events(id)).map((event) => event.type)).toContain('WorkflowRunReleased'),
    );
    await tick(id, 3);
    await eventually(async () =>
      expect((await runs(id)).map((run) => run.trigger.scheduledFor)).toEqual([
        '2026-03-01T12:01:00.000Z',
        '2026-03-01T12:03:00.000Z',
      ]),
    );
    // The same tick again is refused, as before.
    expect((await tick(id, 3)).refused).toBe(1);
  });

  it('overlap buffer_one: keeps the newest tick while a run is going and starts it when the run ends', async () => {
    const id = await create({ trigger: everyMinute, overlap: 'buffer_one' });
    await tick(id, 1);
    await eventually(async () => expect(await statuses(id)).toEqual(['running']));
    const [first] = await runs(id);
    await tick(id, 2);
    await tick(id, 3);
    const buffered = (await events(id)).filter((event) => event.type === 'ScheduledTickBuffered');
    expect(buffered.map((event) => [event.data.scheduledFor, event.data.replaces])).toEqual([
      ['2026-03-01T12:02:00.000Z', null],
      ['2026-03-01T12:03:00.000Z', '2026-03-01T12:02:00.000Z'],
    ]);
    expect(await runs(id)).toHaveLength(1);

    await cancel(id, first.id);
    await eventually(async () => {
      const all = await runs(id);
      expect(all.map((run) => [run.trigger.scheduledFor, run.status])).toEqual([
        ['2026-03-01T12:01:00.000Z', 'cancelled'],
        ['2026-03-01T12:03:00.000Z', 'running'],
      ]);
    });
    // Started once, however many instances saw the end.
    expect((await events(id)).filter((event) => event.type === 'WorkflowTriggered')).toHaveLength(2);
  });

  it('maxConcurrentRuns: runs beyond it wait queued in order, start as earlier ones end; other workflows go on', async () => {
    const id = await create({ maxConcurrentRuns: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      const triggered = await api.request('POST', `/v1/workflows/${id}/trigger`, { input: { i } });
      expect(triggered.status).toBe(202);
      ids.push(triggered.body.id);
    }
    const byId = async () => new Map((await runs(id)).map((run) => [run.id, run.status]));
    await eventually(async () =>
      expect([...(await byId()).values()]).toEqual(['running', 'running', 'queued', 'queued']),
    );
    await eventually(() => expect(model.openRequests()).toBe(2));

    // Another workflow is not held back by this one's limit.
    const free = await create({});
    await api.request('POST', `/v1/workflows/${free}/trigger`, {});
    await eventually(async () => expect(await statuses(free)).toEqual(['running']));

    await cancel(id, ids[0]);
    await eventually(async () => expect((await byId()).get(ids[2])).toBe('running'));
    expect((await byId()).get(ids[3])).toBe('queued');
    // A waiting run cancelled leaves the line; the next end starts nothing more.
    await cancel(id, ids[3]);
    await cancel(id, ids[1]);
    await eventually(async () =>
      expect([...(await byId()).values()]).toEqual(['cancelled', 'cancelled', 'running', 'cancelled']),
    );
  });

  it('refuses a bad overlap or maxConcurrentRuns with a 400 naming the field; PATCH changes and removes them', async () => {
    for (const [field, value] of [
      ['overlap', 'queue'],
      ['maxConcurrentRuns', 0],
      ['maxConcurrentRuns', 1.5],
      ['maxConcurrentRuns', 'two'],
    ] as const) {
      const refused = await api.request('POST', '/v1/workflows', { name: 'bad', steps, [field]: value });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    const id = await create({ trigger: everyMinute });
    const plain = (await api.request('GET', `/v1/workflows/${id}`)).body;
    expect(plain).toMatchObject({ overlap: 'allow', maxConcurrentRuns: null, version: 1 });
    const changed = await api.request('PATCH', `/v1/workflows/${id}`, { overlap: 'skip', maxConcurrentRuns: 3 });
    expect(changed.body).toMatchObject({ overlap: 'skip', maxConcurrentRuns: 3, version: 2 });
    const removed = await api.request('PATCH', `/v1/workflows/${id}`, { maxConcurrentRuns: null });
    expect(removed.body).toMatchObject({ overlap: 'skip', maxConcurrentRuns: null, version: 3 });
    expect((await api.request('PATCH', `/v1/workflows/${id}`, { maxConcurrentRuns: -1 })).status).toBe(400);
    expect((await api.request('GET', `/v1/workflows/${id}`)).body.version).toBe(3);
  });
});

describe('maxConcurrentRuns across a restart', () => {
  it('starts the run that waited once the running one ends after the restart', async () => {
    const dataDir = temporaryDataDir();
    let api = await startTestApp({ dataDir });
    try {
      // The run waits at an approval step, holding nothing, so it is still going after the restart.
      const steps = [{ approval: 'Go on?' }];
      const id = (await api.request('POST', '/v1/workflows', { name: 'one', steps, maxConcurrentRuns: 1 })).body.id;
      const first = (await api.request('POST', `/v1/workflows/${id}/trigger`, {})).body.id;
      const second = (await api.request('POST', `/v1/workflows/${id}/trigger`, {})).body.id;
      const statusOf = async (runId: string) =>
        (await api.request('GET', `/v1/workflows/${id}/runs/${runId}`)).body.status;
      await eventually(async () => expect(await statusOf(first)).toBe('waiting'));
      expect(await statusOf(second)).toBe('queued');

      await api.close();
      api = await startTestApp({ dataDir });
      expect([await statusOf(first), await statusOf(second)]).toEqual(['waiting', 'queued']);
      const decided = await api.request('POST', `/v1/workflows/${id}/runs/${first}/approvals`, { decision: 'reject' });
      expect(decided.status).toBe(202);
      await eventually(async () => expect(await statusOf(second)).toBe('waiting'));
      expect(await statusOf(first)).toBe('failed');
    } finally {
      await api.close();
    }
  });
});
