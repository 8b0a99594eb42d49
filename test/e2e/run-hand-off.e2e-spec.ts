import { join } from 'node:path';
import { AgentRunQueued, agentRunDecider } from '../../src/agents/agent-run';
import { EventStore } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { RunsQueuedHere } from '../../src/agents/runs-queued-here';
import { AgentRunExecutor } from '../../src/execution/agent-run-executor';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { twoInstancesOnTestDouble } from '../support/two-instances';

/** The types of a run's events, in order. */
async function history(api: TestApp, agentId: string, runId: string): Promise<string[]> {
  const events = (await api.request('GET', `/v1/agents/${agentId}/runs/${runId}/events`)).body.events;
  return events.map((event: { type: string }) => event.type);
}

/** Runs queued in this process go to its executor at once; the claim through the log still decides who runs. */
describe('runs handed to the local executor', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  it('starts a run queued here without the executor following the log', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
    // From here the log brings the executor nothing: only the hand-off can start a run.
    await app.app.get(AgentRunExecutor).stopFollowing();

    const ran = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'go' }, { prefer: 'wait=5' });

    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ status: 'succeeded', output: 'done' });
    expect(await history(app, agent.body.id, ran.body.id)).toEqual([
      'AgentRunQueued',
      'AgentRunStarted',
      'AgentRunSucceeded',
    ]);
    expect(model.requests).toHaveLength(1);
  });

  it('executes a run once though both the hand-off and the log bring it', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });

    const ran = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: `t${i}` }, { prefer: 'wait=10' }),
      ),
    );

    expect(ran.map((r) => r.body.status)).toEqual(Array(8).fill('succeeded'));
    for (const run of ran) {
      expect(await history(app, agent.body.id, run.body.id)).toEqual([
        'AgentRunQueued',
        'AgentRunStarted',
        'AgentRunSucceeded',
      ]);
    }
    expect(model.requests).toHaveLength(8);
  });
});

/** The real store, whose appends of a run's success wait until `release` is called. */
function holdingSuccesses(store: EventStore): EventStore & { held: number; release(): void } {
  const wrapper = Object.create(store) as EventStore & { held: number; release(): void };
  const waiting: Array<() => void> = [];
  wrapper.held = 0;
  wrapper.release = () => waiting.splice(0).forEach((go) => go());
  wrapper.append = async (stream, events, options) => {
    if (events.some((event) => event.type === 'AgentRunSucceeded')) {
      wrapper.held++;
      await new Promise<void>((go) => waiting.push(go));
    }
    return store.append(stream, events, options);
  };
  return wrapper;
}

describe("a run's slot", () => {
  it('goes to the next run once the model is done, while the end is being recorded', async () => {
    const model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
    const dataDir = temporaryDataDir();
    const store = holdingSuccesses(new SqliteEventStore({ file: join(dataDir, 'events.sqlite') }));
    const app = await startTestApp({
      dataDir,
      store,
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '1' },
    });
    try {
      const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
      const first = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'first' });
      const second = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'second' });

      // With one slot, the second run's model call comes while the first run's end is still held.
      await eventually(() => {
        expect(model.requests).toHaveLength(2);
        expect(store.held).toBe(2);
      });
      store.release();
      await eventually(async () => {
        for (const run of [first, second]) {
          const got = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${run.body.id}`);
          expect(got.body.status).toBe('succeeded');
        }
      });
    } finally {
      store.release();
      await app.close();
      await model.close();
    }
  });
});

describe('runs handed over, two instances on one EventStoreDB (test double)', () => {
  const two = twoInstancesOnTestDouble(10);

  it('does not execute a run the other instance claimed first', async () => {
    const agent = await two.first.request('POST', '/v1/agents', { name: 'shared', model: 'openai-compatible/m' });
    const agentId = agent.body.id as string;
    const ran = await two.first.request('POST', `/v1/agents/${agentId}/run`, { task: 'once' }, { prefer: 'wait=5' });
    expect(ran.body.status).toBe('succeeded');
    const events = (await two.first.request('GET', `/v1/agents/${agentId}/runs/${ran.body.id}/events`)).body.events;
    const queued = events[0] as AgentRunQueued & { position: string };
    const run = agentRunDecider.evolve(agentRunDecider.initialState, { type: queued.type, data: queued.data })!;

    // The second instance is handed the run as it was queued, after the first has executed it.
    two.second.app.get(RunsQueuedHere).queued({ run, revision: 0n, position: BigInt(queued.position) });

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(two.model.requests).toHaveLength(1);
    expect(await history(two.second, agentId, ran.body.id)).toEqual([
      'AgentRunQueued',
      'AgentRunStarted',
      'AgentRunSucceeded',
    ]);
  });

  it('executes each run once, whichever instance queued it', async () => {
    const agent = await two.first.request('POST', '/v1/agents', { name: 'shared', model: 'openai-compatible/m' });
    const agentId = agent.body.id as string;
    await two.second.request('GET', `/v1/agents/${agentId}`);

    const ran = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? two.first : two.second).request(
          'POST',
          `/v1/agents/${agentId}/run`,
          { task: `run ${i}` },
          { prefer: 'wait=15' },
        ),
      ),
    );

    expect(ran.map((r) => r.body.status)).toEqual(Array(12).fill('succeeded'));
    for (const run of ran) {
      const types = await history(two.first, agentId, run.body.id);
      expect(types.filter((type) => type === 'AgentRunStarted')).toHaveLength(1);
    }
    expect(two.model.requests).toHaveLength(12);
    expect(new Set(two.model.requests.map((r) => r.messages.at(-1)?.content)).size).toBe(12);
  });
});
