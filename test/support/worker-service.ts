import { ChatCompletionsBody, ReplyFunction, ScriptedServer, startScriptedOpenAIServer } from './scripted-model-server';
import { StoreFixture } from './store-fixtures';
import { TestApp, TestAppOptions, startTestApp } from './test-app';

/** A service on a store fixture whose agent `worker` answers from a scripted OpenAI-compatible model. */
export interface WorkerService {
  app: TestApp;
  model: ScriptedServer<ChatCompletionsBody>;
  /** Stops the service and starts it again on the same store, with the same model. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the scripted model, the store and the service, and creates the agent `worker` on the model. `options`
 * go to every start of the service (a data folder and ids kept across a restart, say).
 */
export async function startWorkerService(
  createFixture: () => Promise<StoreFixture>,
  answer: ReplyFunction<ChatCompletionsBody>,
  options: Omit<TestAppOptions, 'fixture' | 'env'> = {},
): Promise<WorkerService> {
  const model = await startScriptedOpenAIServer(answer);
  const fixture = await createFixture();
  const start = () => startTestApp({ ...options, fixture, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  const service: WorkerService = {
    app: await start(),
    model,
    async restart() {
      await service.app.close();
      service.app = await start();
    },
    async close() {
      await service.app.close();
      await fixture.stop();
      await model.close();
    },
  };
  const created = await service.app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' });
  if (created.status !== 201) {
    await service.close();
    throw new Error(`the agent worker was not created: ${JSON.stringify(created.body)}`);
  }
  return service;
}

/** Creates a workflow of `steps` and triggers it with `input`, waiting for its end: the workflow's id and the run. */
export async function runWorkflow(app: TestApp, steps: unknown[], input: Record<string, unknown>) {
  const created = await app.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps });
  expect(created.status).toBe(201);
  const ran = await app.request('POST', `/v1/workflows/${created.body.id}/trigger`, { input }, { prefer: 'wait=10' });
  expect(ran.status).toBe(200);
  return { workflowId: created.body.id as string, run: ran.body };
}
