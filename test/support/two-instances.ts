import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from './scripted-model-server';
import { StoreFixture, storeFixtures } from './store-fixtures';
import { TestApp, startTestApp } from './test-app';

export interface TwoInstances {
  fixture: StoreFixture;
  model: ScriptedServer<ChatCompletionsBody>;
  first: TestApp;
  second: TestApp;
}

/**
 * Two instances of the service on one EventStoreDB (the test double) and one scripted model answering "done" after
 * `modelDelayMs`, started before each test of the describe block that calls this and stopped after it.
 */
export function twoInstancesOnTestDouble(modelDelayMs: number): TwoInstances {
  const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;
  const two = {} as TwoInstances;
  beforeEach(async () => {
    two.fixture = await createTestDouble();
    two.model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done', delayMs: modelDelayMs }));
    const env = { OPENAI_COMPATIBLE_BASE_URL: two.model.baseUrl, RUN_CONCURRENCY: '4' };
    two.first = await startTestApp({ fixture: two.fixture, env });
    two.second = await startTestApp({ fixture: two.fixture, env });
  });
  afterEach(async () => {
    await Promise.all([two.first.close(), two.second.close()]);
    await two.model.close();
    await two.fixture.stop();
  });
  return two;
}
