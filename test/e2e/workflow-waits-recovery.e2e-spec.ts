import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { TestClock } from '../support/test-clock';
import { request, startTestApp, temporaryDataDir } from '../support/test-app';
import { twoInstancesOnTestDouble } from '../support/two-instances';

/**
 * Waiting runs across failures and instances: a process killed with -9 while a run waits, then the signal; a sleep
 * across a restart under the test's clock; and two instances on one EventStoreDB (the test double), where a run is
 * resumed once. The model is a scripted OpenAI-compatible server (for a paid provider), which counts the steps run
 * after each wait.
 */
const waitingWorkflow = (step: Record<string, unknown>) => ({
  name: 'hold then go',
  steps: [
    { id: 'hold', ...step },
    { id: 'go', agent: 'worker', action: 'Go on {{input.id}}' },
  ],
});

async function setUp(url: string, step: Record<string, unknown>) {
  expect((await request(url, 'POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(201);
  const workflow = await request(url, 'POST', '/v1/workflows', waitingWorkflow(step));
  expect(workflow.status).toBe(201);
  return workflow.body.id as string;
}

async function statusOf(url: string, workflowId: string, runId: string, status: string) {
  return eventually(async () => {
    const run = (await request(url, 'GET', `/v1/workflows/${workflowId}/runs/${runId}`)).body;
    expect(run.status).toBe(status);
    return run;
  }, 20_000);
}

describe('a run waiting for a signal when its process is killed with -9', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let service: ServiceProcess | undefined;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
  });
  afterEach(async () => {
    await service?.kill();
    await model.close();
  });

  it('is resumed by the signal sent after the restart, once', async () => {
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    service = await startServiceProcess(dataDir, env);
    const workflowId = await setUp(service.url, { wait: { signal: 'ready', key: '{{input.id}}' } });
    const run = await request(service.url, 'POST', `/v1/workflows/${workflowId}/trigger`, { input: { id: 'r1' } });
    await statusOf(service.url, workflowId, run.body.id, 'waiting');
    await service.kill();

    service = await startServiceProcess(dataDir, env);
    const sent = await request(service.url, 'POST', '/v1/signals', { name: 'ready', key: 'r1', data: { ok: true } });
    expect(sent.body.delivered).toEqual([{ workflowRunId: run.body.id, step: 'hold' }]);
    const done = await statusOf(service.url, workflowId, run.body.id, 'succeeded');
    expect(done.steps[0]).toMatchObject({ outputObject: { ok: true } });
    expect(model.requests).toHaveLength(1);
  }, 60_000);
});

describe('a sleeping run across a restart, under the test clock', () => {
  it('wakes in the new instance when its time comes, from the timer in the read model', async () => {
    const model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, WORKFLOW_TIMER_POLL_MS: '50' };
    const clock = new TestClock();
    let app = await startTestApp({ dataDir, clock, env });
    const workflowId = await setUp(app.url, { sleep: { ms: 86_400_000 } });
    const run = await app.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: { id: 's1' } });
    await statusOf(app.url, workflowId, run.body.id, 'waiting');
    await app.close();

    clock.advance(86_400_000);
    app = await startTestApp({ dataDir, clock, env });
    await statusOf(app.url, workflowId, run.body.id, 'succeeded');
    expect(model.requests).toHaveLength(1);
    await app.close();
    await model.close();
  });
});

describe('waiting runs on two instances of one EventStoreDB (the test double)', () => {
  const two = twoInstancesOnTestDouble(0);

  it('resumes each run once, whichever instance the signal is sent to', async () => {
    const workflowId = await setUp(two.first.url, { wait: { signal: 'ready' } });
    const runIds: string[] = [];
    for (const id of ['a', 'b', 'c']) {
      const run = await two.first.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: { id } });
      runIds.push(run.body.id);
    }
    for (const runId of runIds) await statusOf(two.second.url, workflowId, runId, 'waiting');
    const sent = await two.second.request('POST', '/v1/signals', { name: 'ready' });
    expect(sent.body.delivered).toHaveLength(3);
    for (const runId of runIds) await statusOf(two.first.url, workflowId, runId, 'succeeded');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(two.model.requests).toHaveLength(3);
    for (const runId of runIds) {
      const events = (await two.first.request('GET', `/v1/workflows/${workflowId}/runs/${runId}/events`)).body.events;
      expect(events.filter((event: { type: string }) => event.type === 'WorkflowSignalReceived')).toHaveLength(1);
    }
  });
});
