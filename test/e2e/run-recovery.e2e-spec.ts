import { join } from 'node:path';
import { EventStore, StoreUnavailableError } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { CommandBus } from '@nestjs/cqrs';
import { TriggerWorkflowCommand } from '../../src/workflows/trigger-workflow/trigger-workflow.command';
import { WorkflowRunOpener } from '../../src/workflows/trigger-workflow/workflow-run-opener';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

/**
 * A store that refuses the next append to a run stream, as if it went away between a trigger's two appends.
 * Without appendMultiple, as EventStoreDB: a trigger and its run's stream are two appends there.
 */
function failingOnce(store: EventStore): EventStore & { failNextRunAppend: boolean } {
  const wrapper = Object.create(store) as EventStore & { failNextRunAppend: boolean };
  wrapper.failNextRunAppend = false;
  wrapper.appendMultiple = undefined;
  wrapper.append = (stream, events, options) => {
    if (wrapper.failNextRunAppend && stream.startsWith('workflowrun-')) {
      wrapper.failNextRunAppend = false;
      return Promise.reject(new StoreUnavailableError('connection lost'));
    }
    return store.append(stream, events, options);
  };
  return wrapper;
}

describe('a trigger recorded without its run stream (a store without appendMultiple)', () => {
  let api: TestApp;
  let inner: SqliteEventStore;
  let store: ReturnType<typeof failingOnce>;

  beforeEach(async () => {
    const dataDir = temporaryDataDir();
    inner = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    store = failingOnce(inner);
    // Nothing executes the runs: the lists must show them as the trigger recorded them.
    api = await startTestApp({ dataDir, store, env: { RUN_EXECUTOR_ENABLED: 'false' } });
    await api.request('POST', '/v1/agents', { name: 'worker', model: 'openai/gpt-4o-mini' });
  });
  afterEach(() => api.close());

  it('still answers 202 with the run, lists it, and the sweep opens its stream later', async () => {
    const workflow = (
      await api.request('POST', '/v1/workflows', { name: 'w', steps: [{ agent: 'worker', action: 'go' }] })
    ).body;
    store.failNextRunAppend = true;
    const run = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: { n: 1 } });
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ workflowId: workflow.id, status: 'queued', input: { n: 1 } });
    expect((await api.request('GET', `/v1/workflows/${workflow.id}/runs`)).body.runs).toEqual([run.body]);
    expect((await inner.readStream(`workflowrun-${run.body.id}`)).exists).toBe(false);

    const opener = api.app.get(WorkflowRunOpener);
    expect(await opener.sweep()).toBe(0); // too recent: the request may still be opening it
    api.clock.advance(31_000);
    expect(await opener.sweep()).toBe(1);
    const opened = await inner.readStream(`workflowrun-${run.body.id}`);
    expect(opened.events.map((e) => e.type)).toEqual(['WorkflowRunQueued']);
    expect(opened.events[0].data).toMatchObject({
      id: run.body.id,
      workflowId: workflow.id,
      createdAt: run.body.createdAt,
    });

    expect(await opener.sweep()).toBe(0);
    expect((await api.request('GET', `/v1/workflows/${workflow.id}/runs`)).body.runs).toEqual([run.body]);
  });

  it('cancels a run whose stream was never opened: opens it, then records the cancel on it', async () => {
    const workflow = (
      await api.request('POST', '/v1/workflows', { name: 'w', steps: [{ agent: 'worker', action: 'go' }] })
    ).body;
    store.failNextRunAppend = true;
    const run = (await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: {} })).body;
    expect((await inner.readStream(`workflowrun-${run.id}`)).exists).toBe(false);

    const cancelled = await api.request('POST', `/v1/workflows/${workflow.id}/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: run.id, status: 'cancelled' });
    const opened = await inner.readStream(`workflowrun-${run.id}`);
    expect(opened.events.map((e) => e.type)).toEqual(['WorkflowRunQueued', 'WorkflowRunCancelled']);
  });

  it('records a schedule tick whose deferred stream opening fails, and the sweep opens it later', async () => {
    const created = await api.request('POST', '/v1/workflows', {
      name: 'hourly',
      trigger: { type: 'schedule', cron: '0 * * * *' },
      steps: [{ agent: 'worker', action: 'go' }],
    });
    const workflowId = created.body.id;
    api.clock.set(new Date(created.body.nextRunAt));
    store.failNextRunAppend = true;
    const tick = { type: 'schedule' as const, scheduledFor: created.body.nextRunAt };
    const run = await api.app.get(CommandBus).execute(new TriggerWorkflowCommand(workflowId, {}, tick));
    const opener = api.app.get(WorkflowRunOpener);
    await opener.settled();
    expect((await inner.readStream(`workflowrun-${run.id}`)).exists).toBe(false);
    expect(store.failNextRunAppend).toBe(false); // the deferred opening was tried, and failed

    api.clock.advance(31_000);
    expect(await opener.sweep()).toBe(1);
    const opened = await inner.readStream(`workflowrun-${run.id}`);
    expect(opened.events[0].data).toMatchObject({ id: run.id, workflowId, trigger: tick });
    const runs = (await api.request('GET', `/v1/workflows/${workflowId}/runs`)).body.runs;
    expect(runs).toEqual([expect.objectContaining({ id: run.id, trigger: tick })]);
  });
});

describe('a trigger and its run stream in one commit (SQLite)', () => {
  let api: TestApp;
  let inner: SqliteEventStore;
  let workflowId: string;

  beforeEach(async () => {
    const dataDir = temporaryDataDir();
    inner = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    // Runs are only recorded here: the executor would append to the run's stream next.
    api = await startTestApp({ dataDir, store: inner, env: { RUN_EXECUTOR_ENABLED: 'false' } });
    await api.request('POST', '/v1/agents', { name: 'worker', model: 'openai/gpt-4o-mini' });
    workflowId = (await api.request('POST', '/v1/workflows', { name: 'w', steps: [{ agent: 'worker', action: 'go' }] }))
      .body.id;
  });
  afterEach(() => api.close());

  it('writes both at once: no append of the run stream alone, nothing left for the sweep', async () => {
    const append = jest.spyOn(inner, 'append');
    const appendMultiple = jest.spyOn(inner, 'appendMultiple');
    const run = await api.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: { n: 1 } });
    expect(run.status).toBe(202);
    expect(append.mock.calls.filter(([stream]) => stream.startsWith('workflowrun-'))).toEqual([]);
    expect(appendMultiple.mock.calls.map(([parts]) => parts.map((part) => part.stream))).toEqual([
      [`workflow-${workflowId}`, `workflowrun-${run.body.id}`],
    ]);
    const [triggered] = (await inner.readStream(`workflow-${workflowId}`)).events.slice(-1);
    const [queued] = (await inner.readStream(`workflowrun-${run.body.id}`)).events;
    expect(queued.position).toBe(triggered.position + 1n);
    api.clock.advance(31_000);
    expect(await api.app.get(WorkflowRunOpener).sweep()).toBe(0);
  });

  it('writes neither when that commit fails: the trigger is refused, no run is listed', async () => {
    jest.spyOn(inner, 'appendMultiple').mockRejectedValueOnce(new StoreUnavailableError('connection lost'));
    const refused = await api.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: { n: 1 } });
    expect(refused.status).toBe(503);
    expect((await api.request('GET', `/v1/workflows/${workflowId}/runs`)).body.runs).toEqual([]);
    expect((await api.request('GET', `/v1/workflows/${workflowId}`)).body.lastRun).toBeNull();
  });
});
