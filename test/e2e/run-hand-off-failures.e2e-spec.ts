import { join } from 'node:path';
import { CHECKPOINT_STORE, CheckpointStore } from '../../src/consumers/checkpoint-store';
import { EventStore, NewEvent } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { startTestApp, temporaryDataDir } from '../support/test-app';

/** The first queueing of an agent run fails with nothing written, as a store away for a moment would. */
function failingFirstQueueing(store: EventStore) {
  const wrapper = Object.create(store) as EventStore & { failed: number };
  wrapper.failed = 0;
  wrapper.append = async (stream, events: NewEvent[], options) => {
    if (stream.startsWith('agentrun-') && events[0].type === 'AgentRunQueued' && wrapper.failed === 0) {
      wrapper.failed++;
      throw new Error('store away for a moment');
    }
    return store.append(stream, events, options);
  };
  return wrapper;
}

describe('runs handed to the local executor, when a write fails or a checkpoint lags', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
  });
  afterEach(() => model.close());

  it("runs a workflow step whose run's queueing (with its claim) failed once and was written on the retry", async () => {
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    const store = failingFirstQueueing(new SqliteEventStore({ file: join(dataDir, 'events.sqlite') }));
    const app = await startTestApp({ dataDir, store, env });
    try {
      const agentId = (await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' })).body
        .id;
      const steps = [{ agent: 'writer', action: 'write' }];
      const workflow = await app.request('POST', '/v1/workflows', { name: 'one-step', steps });
      const ran = await app.request(
        'POST',
        `/v1/workflows/${workflow.body.id}/trigger`,
        { input: {} },
        { prefer: 'wait=5' },
      );
      expect(store.failed).toBe(1);
      expect(ran.body.status).toBe('succeeded');
      const run = await app.request('GET', `/v1/agents/${agentId}/runs/${ran.body.steps[0].agentRunId}`);
      expect(run.body.status).toBe('succeeded');
      expect(model.requests).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('repeats no model call and no thread message when the executor and thread exchanges replay from the start', async () => {
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    let app = await startTestApp({ dataDir, env });
    const checkpoints = app.app.get<CheckpointStore>(CHECKPOINT_STORE);
    const save = checkpoints.save.bind(checkpoints);
    // As if killed before their checkpoints, written once a second, were ever saved.
    checkpoints.save = (name, position) => {
      if (name !== 'agent-run-executor' && name !== 'thread-exchanges') save(name, position);
    };
    const agent = (await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' })).body.id;
    const thread = (await app.request('POST', '/v1/threads', { agentId: agent })).body.id;
    for (let i = 0; i < 3; i++) {
      const run = await app.request('POST', `/v1/agents/${agent}/run`, { task: `${i}` }, { prefer: 'wait=5' });
      expect(run.body.status).toBe('succeeded');
      const turn = await app.request('POST', `/v1/threads/${thread}/runs`, { task: `t${i}` }, { prefer: 'wait=5' });
      expect(turn.body.status).toBe('succeeded');
    }
    // The last exchange is recorded after its run ends.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const messages = (await app.request('GET', `/v1/threads/${thread}/messages`)).body;
    await app.close();
    expect(model.requests).toHaveLength(6);
    app = await startTestApp({ dataDir, env });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(model.requests).toHaveLength(6);
      expect((await app.request('GET', `/v1/threads/${thread}/messages`)).body).toEqual(messages);
    } finally {
      await app.close();
    }
  });

  it('stops a run started while its queueing commits when that write fails, records nothing, and frees its slot', async () => {
    model.respondWith(() => ({ kind: 'text', text: 'done', delayMs: 300 }));
    const dataDir = temporaryDataDir();
    const inner = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    const store = Object.create(inner) as EventStore;
    let failedStream: string | undefined;
    let modelCalledFirst = false;
    store.append = async (stream, events: NewEvent[], options) => {
      if (stream.startsWith('agentrun-') && events[0].type === 'AgentRunQueued' && !failedStream) {
        failedStream = stream;
        // The run executes while its queueing is being written: its model call goes out before the write fails.
        for (let i = 0; i < 200 && model.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
        modelCalledFirst = model.requests.length === 1;
        throw new Error('store away for a moment');
      }
      return inner.append(stream, events, options);
    };
    const app = await startTestApp({ dataDir, store, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    try {
      const agentId = (await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' })).body.id;
      const failed = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'one' }, { prefer: 'wait=5' });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(modelCalledFirst).toBe(true);
      // Past the model's answer: the stopped run wrote nothing.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await inner.readStream(failedStream!)).events).toEqual([]);
      const next = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'two' }, { prefer: 'wait=5' });
      expect(next.body.status).toBe('succeeded');
      expect((await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs).toHaveLength(1);
      expect(model.requests).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
