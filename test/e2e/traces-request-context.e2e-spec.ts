import { AsyncLocalStorage } from 'node:async_hooks';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { EVENT_STORE, EventStore } from '../../src/event-store/event-store';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp } from '../support/test-app';
import { storeFixtures } from '../support/store-fixtures';
import { scheduleJobName } from '../../src/workflows/scheduling/workflow-scheduler';

/**
 * A request's trace context travels explicitly (request → command → actor), not in an AsyncLocalStorage: these
 * tests fail if it is dropped anywhere on the way, in particular after a handler's first await, where no async
 * scope would carry it.
 */
describe('traces: the request context, carried explicitly', () => {
  let app: TestApp;
  let spans: InMemorySpanExporter;
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'Done.' }));
  });
  afterAll(() => model.close());
  beforeEach(async () => {
    spans = new InMemorySpanExporter();
    app = await startTestApp({ spanExporter: spans, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterEach(() => app.close());

  const one = (name: string): ReadableSpan => {
    const found = spans.getFinishedSpans().filter((s) => s.name === name);
    expect(found.map((s) => s.name)).toEqual([name]);
    return found[0];
  };
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const firstEvent = async (stream: string) =>
    (await app.app.get<EventStore>(EVENT_STORE).readStream(stream, { maxCount: 1 })).events[0];
  const createAgent = async (name: string) => {
    const created = await app.request('POST', '/v1/agents', { name, model: 'openai-compatible/test-model' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  it('makes the HTTP span the command span’s parent, and the command span the append’s', async () => {
    const agentId = await createAgent('explicit');
    await eventually(() => void one('POST /v1/agents'));
    const post = one('POST /v1/agents');
    const command = one('command CreateAgentCommand');
    const append = one('append agentname, agent');
    expect(parentOf(command)).toBe(idOf(post));
    expect(parentOf(append)).toBe(idOf(command));
    expect(new Set([post, command, append].map((s) => s.spanContext().traceId)).size).toBe(1);
    // The events' traceparent names the command span.
    expect((await firstEvent(`agent-${agentId}`)).metadata.traceparent).toBe(
      `00-${post.spanContext().traceId}-${idOf(command)}-01`,
    );
  });

  it('keeps the command span as the parent after the handler has awaited (a run queued, an update)', async () => {
    const agentId = await createAgent('awaits');
    // Read first, then queued: the append comes after the handler's first await.
    const queued = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' });
    expect(queued.status).toBe(202);
    await eventually(() => void one('POST /v1/agents/:agentId/run'));
    const command = one('command RunAgentCommand');
    expect(parentOf(command)).toBe(idOf(one('POST /v1/agents/:agentId/run')));
    const queuing = spans
      .getFinishedSpans()
      .filter(
        (s) =>
          s.name === 'append agentrun' && String(s.attributes['event_store.event_types']).startsWith('AgentRunQueued'),
      );
    expect(queuing.map(parentOf)).toEqual([idOf(command)]);
    // The run's stored traceparent (which the executor continues, here or after a restart) is the command's.
    const stored = await firstEvent(`agentrun-${queued.body.id}`);
    expect(stored.type).toBe('AgentRunQueued');
    expect(stored.metadata.traceparent).toBe(`00-${command.spanContext().traceId}-${idOf(command)}-01`);
    await eventually(() => expect(spans.getFinishedSpans().some((s) => s.name.startsWith('invoke_agent '))).toBe(true));
    const run = spans.getFinishedSpans().find((s) => s.name.startsWith('invoke_agent '))!;
    expect(parentOf(run)).toBe(idOf(command));

    const patched = await app.request('PATCH', `/v1/agents/${agentId}`, { instructions: 'Be brief.' });
    expect(patched.status).toBe(200);
    await eventually(() => void one('PATCH /v1/agents/:agentId'));
    const update = one('command UpdateAgentCommand');
    expect(parentOf(update)).toBe(idOf(one('PATCH /v1/agents/:agentId')));
    expect(parentOf(one('append agent'))).toBe(idOf(update));
  });

  it("records an Idempotency-Key's claim under the request", async () => {
    const created = await app.request(
      'POST',
      '/v1/agents',
      { name: 'once', model: 'openai-compatible/test-model' },
      { 'idempotency-key': 'key-1' },
    );
    expect(created.status).toBe(201);
    await eventually(() => void one('POST /v1/agents'));
    const claims = spans.getFinishedSpans().filter((s) => s.name === 'append idempotency');
    expect(claims.length).toBeGreaterThanOrEqual(1);
    for (const claim of claims) expect(parentOf(claim)).toBe(idOf(one('POST /v1/agents')));
  });

  it("keeps a step's retry, set on a timer after its scope ended, in the workflow run's trace", async () => {
    await createAgent('retried');
    const steps = [{ agent: 'retried', action: 'go', retry: { attempts: 2, backoffMs: 50 } }];
    const workflow = (await app.request('POST', '/v1/workflows', { name: 'retrying', steps })).body;
    model.enqueue({ kind: 'error', status: 400, message: 'flaky' });
    const ran = await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, {}, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.steps[0].attempts).toHaveLength(2);
    await eventually(() =>
      expect(spans.getFinishedSpans().filter((s) => s.name === 'invoke_agent retried')).toHaveLength(2),
    );
    const trigger = one('POST /v1/workflows/:workflowId/trigger');
    const attempts = spans.getFinishedSpans().filter((s) => s.name === 'invoke_agent retried');
    expect(attempts.map((s) => s.spanContext().traceId)).toEqual([
      trigger.spanContext().traceId,
      trigger.spanContext().traceId,
    ]);
  });

  it('enters no AsyncLocalStorage for a request, and turns the promise hooks off again after a run', async () => {
    const agentId = await createAgent('no-scope');
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    const disable = jest.spyOn(AsyncLocalStorage.prototype, 'disable');
    try {
      await app.request('POST', '/v1/agents', { name: 'no-scope-2', model: 'openai-compatible/test-model' });
      await app.request('PATCH', `/v1/agents/${agentId}`, { instructions: 'Be brief.' });
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
      // A run does enter one (the AI SDK reads the active context)...
      const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' }, { prefer: 'wait=10' });
      expect(ran.body.status).toBe('succeeded');
      expect(run).toHaveBeenCalled();
      // ...and disables it once the run is over, which turns the promise hooks off (unless another storage in this
      // test worker holds them on: so the disabling itself is what is checked).
      const storage = run.mock.contexts[0];
      await eventually(() => expect(disable.mock.contexts).toContain(storage));
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
      disable.mockRestore();
    }
  });
});

describe('traces: a tick on EventStoreDB (test double), whose run streams open on the next turn', () => {
  const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

  it("records the run's stream in the tick's trace, though the tick's async scope has ended by then", async () => {
    const fixture = await createTestDouble();
    const spans = new InMemorySpanExporter();
    const app = await startTestApp({ fixture, spanExporter: spans });
    try {
      await app.request('POST', '/v1/agents', { name: 'ticked', model: 'openai/gpt-4o-mini' });
      const workflow = await app.request('POST', '/v1/workflows', {
        name: 'ticking',
        steps: [{ agent: 'ticked', action: 'go' }],
        trigger: { type: 'schedule', cron: '* * * * *' },
      });
      expect(workflow.status).toBe(201);
      app.clock.set('2026-03-01T12:01:00.000Z');
      await app.app.get(SchedulerRegistry).getCronJob(scheduleJobName('* * * * *', 'UTC')).fireOnTick();
      let runId = '';
      await eventually(async () => {
        const runs = (await app.request('GET', `/v1/workflows/${workflow.body.id}/runs`)).body.runs;
        expect(runs).toHaveLength(1);
        runId = runs[0].id;
      });
      await eventually(() => expect(spans.getFinishedSpans().some((s) => s.name === 'scheduled tick')).toBe(true));
      const tick = spans.getFinishedSpans().find((s) => s.name === 'scheduled tick')!;
      const store = app.app.get<EventStore>(EVENT_STORE);
      let queued: Awaited<ReturnType<EventStore['readStream']>>['events'][number] | undefined;
      await eventually(async () => {
        queued = (await store.readStream(`workflowrun-${runId}`, { maxCount: 1 })).events[0];
        expect(queued?.type).toBe('WorkflowRunQueued');
      });
      expect(queued!.metadata.traceparent?.split('-')[1]).toBe(tick.spanContext().traceId);
    } finally {
      await app.close();
      await fixture.stop();
    }
  });
});
