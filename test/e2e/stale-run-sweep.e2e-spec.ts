import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { agentRunStream } from '../../src/agents/agent-run/agent-run.events';
import { AgentsReadModel } from '../../src/agents/queries/agents.read-model';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { StaleRunSweeper } from '../../src/execution/agent-runs/stale-run-sweeper';
import { SequentialIds } from '../support/sequential-ids';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { TestClock } from '../support/test-clock';

const RUNS = 1000;
const LEASE_MS = 60_000;

describe('the stale-run sweeper', () => {
  let app: TestApp | undefined;
  afterEach(() => app?.close());

  it(`ends any number of orphaned runs in one sweep (${RUNS}), in batches until none is left`, async () => {
    const dataDir = temporaryDataDir();
    const clock = new TestClock();
    const ids = new SequentialIds();
    app = await startTestApp({ dataDir, clock, ids, env: { RUN_EXECUTOR_ENABLED: 'false' } });
    const agent = await app.request('POST', '/v1/agents', { name: 'orphaned', model: 'ollama/llama3.2' });
    await app.close();

    // What an instance killed with -9 leaves behind: runs claimed, and then nothing more.
    const store = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    const at = clock.now().toISOString();
    const runIds = Array.from({ length: RUNS }, () => ids.newId('agentrun'));
    const event = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      data,
      metadata: { schemaVersion: 1 },
    });
    for (let i = 0; i < RUNS; i += 100) {
      await Promise.all(
        runIds
          .slice(i, i + 100)
          .map((id) =>
            store.append(
              agentRunStream(id),
              [
                event('AgentRunQueued', { id, agentId: agent.body.id, task: 'x', context: {}, createdAt: at }),
                event('AgentRunStarted', { runId: id, executorId: 'dead-instance', warnings: [], startedAt: at }),
              ],
              { expected: 'no_stream' },
            ),
          ),
      );
    }
    await store.close();

    app = await startTestApp({ dataDir, clock, ids, env: { RUN_LEASE_MS: String(LEASE_MS) } });
    const runs = app.app.get(AgentsReadModel);
    const statuses = () => new Set(runIds.map((id) => runs.getRun(agent.body.id, id)?.status));
    expect(statuses()).toEqual(new Set(['running']));
    clock.advance(LEASE_MS + 1);
    const started = Date.now();
    expect(await app.app.get(StaleRunSweeper).sweep()).toBe(RUNS);
    const tookMs = Date.now() - started;
    // The promise is 1.5 × RUN_LEASE_MS from the last renewal: the lease, then at most half of it to sweep.
    expect(tookMs).toBeLessThan(LEASE_MS / 2);
    expect(statuses()).toEqual(new Set(['failed']));
    const last = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${runIds[RUNS - 1]}`);
    expect(last.body).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
  }, 120_000);
});
