import { StreamWatch } from '../../src/live/stream-watch';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp } from '../support/test-app';

const WAITERS = 200;

describe('shutting down with Prefer: wait requests open', () => {
  let api: TestApp;
  afterEach(() => api.close());

  it(`answers every waiter (${WAITERS} on agent runs, ${WAITERS} on workflow triggers) with 202 and the run as it stands`, async () => {
    // Runs stay queued: nothing would end them, so only the shutdown can answer the waiters.
    api = await startTestApp({
      env: { RUN_EXECUTOR_ENABLED: 'false', SCHEDULER_ENABLED: 'false', SHUTDOWN_TIMEOUT_MS: '60000' },
    });
    const agent = await api.request('POST', '/v1/agents', { name: 'waited', model: 'ollama/llama3.2' });
    const workflow = await api.request('POST', '/v1/workflows', {
      name: 'waited',
      steps: [{ agent: 'waited', action: 'go' }],
    });
    const prefer = { prefer: 'wait=600' };
    const waiting = [
      ...Array.from({ length: WAITERS }, () =>
        api.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'x' }, prefer),
      ),
      ...Array.from({ length: WAITERS }, () =>
        api.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: {} }, prefer),
      ),
    ];
    const watch = api.app.get(StreamWatch);
    await eventually(() => expect(watch.waiting).toBe(2 * WAITERS), 30_000);

    const started = Date.now();
    await api.close();
    const answers = await Promise.all(waiting);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answers.map((answer) => answer.status)).toEqual(Array(2 * WAITERS).fill(202));
    for (const answer of answers) expect(answer.body).toMatchObject({ id: expect.any(String), status: 'queued' });
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(2 * WAITERS);
    api = await startTestApp({ env: { RUN_EXECUTOR_ENABLED: 'false' } });
  }, 120_000);
});
