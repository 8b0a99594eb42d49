import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { StepTimers } from '../../src/execution/workflow-runs/step-timers';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Workflows that wait for the world, over real HTTP on the embedded store: a wait step resumed by a signal (sent
 * after the wait began, or before it, kept for it), by key; its time-out; a signal reaching two runs; and a sleep,
 * under the test's clock. The model is a scripted OpenAI-compatible server (for a paid provider).
 */
describe('workflow waits and sleeps', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  let timers: StepTimers;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => ({ kind: 'text', text: `Did: ${lastUserMessage(body)}` }));
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, SIGNAL_RETENTION_MS: '60000', WORKFLOW_TIMER_POLL_MS: '50' },
    });
    timers = app.app.get(StepTimers);
    expect((await app.request('POST', '/v1/agents', { name: 'shipper', model: 'openai-compatible/m' })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  async function workflowWith(step: Record<string, unknown>) {
    const workflow = await app.request('POST', '/v1/workflows', {
      name: `waits ${Math.random()}`,
      steps: [
        { id: 'hold', ...step },
        { id: 'ship', agent: 'shipper', action: 'Ship {{input.orderId}}: {{steps.hold.output}}' },
      ],
    });
    expect(workflow.status).toBe(201);
    return workflow.body.id as string;
  }

  async function trigger(workflowId: string, input: Record<string, unknown>) {
    const run = await app.request('POST', `/v1/workflows/${workflowId}/trigger`, { input });
    expect(run.status).toBe(202);
    return `/v1/workflows/${workflowId}/runs/${run.body.id}`;
  }

  const runAt = async (path: string, status: string) =>
    eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.status).toBe(status);
      return run;
    });

  const signal = (body: Record<string, unknown>) => app.request('POST', '/v1/signals', body);

  it('waits for a signal with its key, and goes on with its data; another key does not wake it', async () => {
    const workflowId = await workflowWith({ wait: { signal: 'order.paid', key: '{{input.orderId}}' } });
    const path = await trigger(workflowId, { orderId: 'o-1' });
    const waiting = await runAt(path, 'waiting');
    expect(waiting.steps[0]).toMatchObject({
      status: 'waiting',
      agent: null,
      wait: { signal: 'order.paid', key: '{{input.orderId}}' },
      awaiting: { signal: 'order.paid', key: 'o-1', timeoutAt: null },
    });

    const other = await signal({ name: 'order.paid', key: 'o-2', data: { amount: 1 } });
    expect(other.status).toBe(202);
    expect(other.body).toMatchObject({ id: expect.stringMatching(/^signal_/), delivered: [] });
    expect((await app.request('GET', path)).body.status).toBe('waiting');

    const paid = await signal({ name: 'order.paid', key: 'o-1', data: { amount: 42 } });
    expect(paid.body.delivered).toEqual([{ workflowRunId: waiting.id, step: 'hold' }]);
    const done = await runAt(path, 'succeeded');
    expect(done.steps[0]).toMatchObject({
      status: 'succeeded',
      output: '{"amount":42}',
      outputObject: { amount: 42 },
      awaiting: { signalId: paid.body.id },
    });
    expect(done.output).toBe('Did: Ship o-1: {"amount":42}');
    // The run took the signal once: sending it again reaches nothing.
    expect((await signal({ name: 'order.paid', key: 'o-1' })).body.delivered).toEqual([]);
  });

  it('keeps a signal sent before the wait began, for the first wait that begins within its retention', async () => {
    const early = await signal({ name: 'parcel.arrived', key: 'p-7', data: 'at the door' });
    expect(early.body).toMatchObject({ delivered: [], expiresAt: expect.any(String) });
    const workflowId = await workflowWith({ wait: { signal: 'parcel.arrived', key: '{{input.orderId}}' } });
    const first = await runAt(await trigger(workflowId, { orderId: 'p-7' }), 'succeeded');
    expect(first.steps[0]).toMatchObject({ output: 'at the door', awaiting: { signalId: early.body.id } });
    // It was taken: a second run waits for a signal of its own.
    const second = await trigger(workflowId, { orderId: 'p-7' });
    await runAt(second, 'waiting');
    // A signal past its retention is not kept for a wait that begins later.
    const late = await signal({ name: 'parcel.arrived', key: 'p-8' });
    app.clock.advance(60_001);
    await runAt(await trigger(workflowId, { orderId: 'p-8' }), 'waiting');
    expect(late.body.delivered).toEqual([]);
  });

  it('reaches every run waiting for its name and key, each once', async () => {
    const workflowId = await workflowWith({ wait: { signal: 'go' } });
    const paths = [await trigger(workflowId, { orderId: 'a' }), await trigger(workflowId, { orderId: 'b' })];
    for (const path of paths) await runAt(path, 'waiting');
    const go = await signal({ name: 'go', key: 'anything', data: { n: 1 } });
    expect(go.body.delivered).toHaveLength(2);
    for (const path of paths) await runAt(path, 'succeeded');
    const events = (await app.request('GET', `${paths[0]}/events`)).body.events.map((e: { type: string }) => e.type);
    expect(events.filter((type: string) => type === 'WorkflowSignalReceived')).toHaveLength(1);
  });

  it('fails a wait that times out with signal_timeout', async () => {
    const workflowId = await workflowWith({ wait: { signal: 'never', timeoutMs: 5000 } });
    const path = await trigger(workflowId, { orderId: 'x' });
    const waiting = await runAt(path, 'waiting');
    expect(waiting.steps[0].awaiting.timeoutAt).toEqual(expect.any(String));
    app.clock.advance(5001);
    // The poll fires it within WORKFLOW_TIMER_POLL_MS; firing by hand as well changes nothing.
    await timers.fireDue();
    const failed = await runAt(path, 'failed');
    expect(failed.error).toMatchObject({ code: 'signal_timeout' });
    expect((await signal({ name: 'never' })).body.delivered).toEqual([]);
  });

  it('waits again after a time-out as its retry allows, and a signal then wakes it', async () => {
    const workflowId = await workflowWith({ wait: { signal: 'late', timeoutMs: 5000 }, retry: { attempts: 2 } });
    const path = await trigger(workflowId, { orderId: 'y' });
    const first = await runAt(path, 'waiting');
    app.clock.advance(5001);
    await timers.fireDue();
    const second = await eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.steps[0].awaiting).toMatchObject({ attempt: 2 });
      return run;
    });
    expect(second.status).toBe('waiting');
    expect(Date.parse(second.steps[0].awaiting.timeoutAt)).toBeGreaterThan(
      Date.parse(first.steps[0].awaiting.timeoutAt),
    );
    expect((await signal({ name: 'late', data: 'at last' })).body.delivered).toEqual([
      { workflowRunId: second.id, step: 'hold' },
    ]);
    const done = await runAt(path, 'succeeded');
    expect(done.steps[1].task).toBe('Ship y: at last');
  });

  it('sleeps for a time, or until a time its input gives, holding nothing, and wakes on the clock', async () => {
    const workflowId = await workflowWith({ sleep: { ms: 3_600_000 } });
    const path = await trigger(workflowId, { orderId: 's-1' });
    const sleeping = await runAt(path, 'waiting');
    const wakeAt = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    expect(sleeping.steps[0]).toMatchObject({ status: 'waiting', sleep: { ms: 3_600_000 }, wakeAt });
    expect(await timers.fireDue()).toBe(0);
    app.clock.advance(3_600_000);
    const woke = await runAt(path, 'succeeded');
    expect(woke.steps[0]).toMatchObject({ status: 'succeeded', output: wakeAt });

    const until = await workflowWith({ sleep: { until: '{{input.at}}' } });
    const at = new Date(app.clock.now().getTime() + 1000).toISOString();
    const pathUntil = await trigger(until, { orderId: 's-2', at });
    expect((await runAt(pathUntil, 'waiting')).steps[0].wakeAt).toBe(at);
    app.clock.advance(1000);
    await runAt(pathUntil, 'succeeded');
    const bad = await runAt(await trigger(until, { orderId: 's-3', at: 'tomorrow-ish' }), 'failed');
    expect(bad.error).toMatchObject({ code: 'sleep_until_invalid' });
  });

  it('refuses steps and signals that do not hold, naming the field', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ wait: { signal: '' } }, 'steps[0].wait.signal'],
      [{ wait: { signal: 'x', timeoutMs: 5 } }, 'steps[0].wait.timeoutMs'],
      [{ wait: { signal: 'x' }, agent: 'shipper' }, 'steps[0].agent'],
      [{ wait: { signal: 'x' }, sleep: { ms: 5 } }, 'steps[0].sleep'],
      [{ sleep: {} }, 'steps[0].sleep'],
      [{ sleep: { ms: 5, until: 'x' } }, 'steps[0].sleep'],
      [{ sleep: { ms: 5 }, timeoutMs: 5000 }, 'steps[0].timeoutMs'],
      [{ wait: { signal: 'x', key: '{{steps.ship.output}}' } }, 'steps[0].wait.key'],
      [{ wait: { signal: 'x' }, retry: { attempts: 2 } }, 'steps[0].retry'],
      [{ sleep: { ms: 5000 }, retry: { attempts: 2 } }, 'steps[0].retry'],
    ];
    for (const [step, path] of refused) {
      const answer = await app.request('POST', '/v1/workflows', {
        name: 'bad',
        steps: [step, { id: 'ship', agent: 'shipper', action: 'go' }],
      });
      expectProblem(answer, 400);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    for (const body of [{}, { name: '' }, { name: 'x', key: 5 }, { name: 'x', data: 'y'.repeat(70_000) }]) {
      expectProblem(await signal(body), 400);
    }
  });
});
