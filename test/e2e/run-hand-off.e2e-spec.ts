import { join } from 'node:path';
import { AgentRunQueued } from '../../src/agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../src/agents/agent-run/agent-run';
import { EVENT_STORE, EventStore, NewEvent } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { RunsQueuedHere } from '../../src/execution/agent-runs/runs-queued-here';
import { AgentRunExecutor } from '../../src/execution/agent-runs/agent-run-executor';
import { ProjectionRunner } from '../../src/read-models/projection-runner';
import { CHECKPOINT_STORE, CheckpointStore } from '../../src/consumers/checkpoint-store';
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

describe("the executor's checkpoint", () => {
  it('is written once a while rather than once a run, and at its latest when the service stops', async () => {
    const model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    let app = await startTestApp({ dataDir, env });
    try {
      const checkpoints = app.app.get<CheckpointStore>(CHECKPOINT_STORE);
      const saved: bigint[] = [];
      const save = checkpoints.save.bind(checkpoints);
      checkpoints.save = (name, position) => {
        if (name === 'agent-run-executor') saved.push(position);
        save(name, position);
      };
      const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
      const runs = [];
      for (let i = 0; i < 10; i++)
        runs.push(await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: `${i}` }, { prefer: 'wait=5' }));
      expect(runs.map((run) => run.body.status)).toEqual(Array(10).fill('succeeded'));
      expect(saved.length).toBeLessThan(10);
      const last = runs.at(-1)!.body.id as string;
      const [queued] = (await app.app.get<EventStore>(EVENT_STORE).readStream(`agentrun-${last}`)).events;

      await app.close();
      expect(saved.at(-1)).toBe(queued.position);
      // After a restart, nothing runs again.
      app = await startTestApp({ dataDir, env });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(model.requests).toHaveLength(10);
    } finally {
      await app.close();
      await model.close();
    }
  });
});

/** The real store, noting each append to a run's stream (one append is one commit) as the types it wrote. */
function notingRunAppends(store: EventStore, answerLater?: () => Promise<void>) {
  const wrapper = Object.create(store) as EventStore & { appends: Map<string, string[][]> };
  wrapper.appends = new Map();
  wrapper.append = async (stream, events: NewEvent[], options) => {
    const written = await store.append(stream, events, options);
    if (stream.startsWith('agentrun-')) {
      const runId = stream.slice('agentrun-'.length);
      wrapper.appends.set(runId, [...(wrapper.appends.get(runId) ?? []), events.map((event) => event.type)]);
      // The commit is in, but its answer comes later: the log may bring the run first.
      if (events[0].type === 'AgentRunQueued') await answerLater?.();
    }
    return written;
  };
  return wrapper;
}

describe('a run queued here while a slot is free', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done', delayMs: 200 }));
  });
  afterEach(() => model.close());

  async function startWith(store: (inner: EventStore) => EventStore, concurrency = 2, more: NodeJS.ProcessEnv = {}) {
    const dataDir = temporaryDataDir();
    const inner = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: String(concurrency), ...more };
    return startTestApp({ dataDir, store: store(inner), env });
  }

  it('is queued and started in one commit, and its 202 shows it running', async () => {
    let store!: ReturnType<typeof notingRunAppends>;
    const app = await startWith((inner) => (store = notingRunAppends(inner)), 1);
    try {
      const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
      const first = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'first' });
      // The one slot is taken: the next run is queued alone, and claimed once the first is done.
      const second = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'second' });

      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ status: 'running', startedAt: expect.any(String), endedAt: null });
      expect(second.body).toMatchObject({ status: 'queued', startedAt: null });
      await eventually(async () => {
        for (const run of [first, second])
          expect(await history(app, agent.body.id, run.body.id)).toEqual([
            'AgentRunQueued',
            'AgentRunStarted',
            'AgentRunSucceeded',
          ]);
      });
      expect(store.appends.get(first.body.id)).toEqual([['AgentRunQueued', 'AgentRunStarted'], ['AgentRunSucceeded']]);
      expect(store.appends.get(second.body.id)).toEqual([
        ['AgentRunQueued'],
        ['AgentRunStarted'],
        ['AgentRunSucceeded'],
      ]);
      expect(model.requests).toHaveLength(2);
    } finally {
      await app.close();
    }
  });

  it("is queued and started in one commit as a workflow step's run too", async () => {
    let store!: ReturnType<typeof notingRunAppends>;
    const app = await startWith((inner) => (store = notingRunAppends(inner)));
    try {
      await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' });
      const workflow = await app.request('POST', '/v1/workflows', {
        name: 'one step',
        steps: [{ agent: 'writer', action: 'write' }],
      });
      const ran = await app.request(
        'POST',
        `/v1/workflows/${workflow.body.id}/trigger`,
        { input: {} },
        { prefer: 'wait=5' },
      );

      expect(ran.body.status).toBe('succeeded');
      const stepRunId = ran.body.steps[0].agentRunId as string;
      expect(store.appends.get(stepRunId)).toEqual([['AgentRunQueued', 'AgentRunStarted'], ['AgentRunSucceeded']]);
      expect(model.requests).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('executes once when the log brings its queueing before the commit answers, and the read models lag', async () => {
    let store!: ReturnType<typeof notingRunAppends>;
    const app = await startWith(
      (inner) => (store = notingRunAppends(inner, () => new Promise((resolve) => setTimeout(resolve, 300)))),
      2,
      { READ_YOUR_WRITES_TIMEOUT_MS: '100' },
    );
    try {
      const agent = await app.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
      // The read models show nothing from here: only the executor's own bookkeeping can tell the run is started.
      await app.app.get(ProjectionRunner).stopFollowing();
      const ran = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'go' });

      expect(ran.body).toMatchObject({ status: 'running' });
      await eventually(() =>
        expect(store.appends.get(ran.body.id)).toEqual([['AgentRunQueued', 'AgentRunStarted'], ['AgentRunSucceeded']]),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(model.requests).toHaveLength(1);
      expect(store.appends.get(ran.body.id)).toHaveLength(2);
    } finally {
      await app.close();
    }
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

  it('starts a run queued with a free slot in its queueing commit, and the other instance never claims it', async () => {
    const agent = await two.first.request('POST', '/v1/agents', { name: 'shared', model: 'openai-compatible/m' });
    const agentId = agent.body.id as string;
    const first = two.first.app.get(AgentRunExecutor).executorId;
    const ran = await two.first.request('POST', `/v1/agents/${agentId}/run`, { task: 'once' });
    expect(ran.body.status).toBe('running');
    const stream = `agentrun-${ran.body.id}`;
    const [queued, started] = (await two.first.app.get<EventStore>(EVENT_STORE).readStream(stream)).events;
    expect(started).toMatchObject({ type: 'AgentRunStarted', revision: 1n, data: { executorId: first } });

    // The second instance is handed the run as its queueing alone would have left it, while the first executes it.
    const run = agentRunDecider.evolve(agentRunDecider.initialState, {
      type: queued.type,
      data: queued.data,
    } as AgentRunQueued)!;
    two.second.app.get(RunsQueuedHere).queued({ run, revision: 0n, position: queued.position });

    await eventually(async () =>
      expect((await two.second.request('GET', `/v1/agents/${agentId}/runs/${ran.body.id}`)).body.status).toBe(
        'succeeded',
      ),
    );
    expect(two.model.requests).toHaveLength(1);
    const events = (await two.second.app.get<EventStore>(EVENT_STORE).readStream(stream)).events;
    expect(events.map((event) => event.type)).toEqual(['AgentRunQueued', 'AgentRunStarted', 'AgentRunSucceeded']);
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
