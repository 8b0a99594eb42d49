import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EventStore } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { workflowStream } from '../../src/workflows/workflow/workflow.events';
import { SequentialIds } from '../support/sequential-ids';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe.each(storeFixtures())('workflow snapshots across restarts on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let dataDir: string;
  let ids: SequentialIds;
  let api: TestApp;

  const start = (snapshotEvery: string) =>
    startTestApp({ dataDir, ids, fixture, env: { RUN_EXECUTOR_ENABLED: 'false', SNAPSHOT_EVERY: snapshotEvery } });
  const trigger = (id: string) => api.request('POST', `/v1/workflows/${id}/trigger`, { input: {} });

  /** The store the app used, opened while no app runs. */
  function openStore(): EventStore {
    return fixture.connect() ?? new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
  }

  beforeEach(async () => {
    fixture = await createFixture();
    dataDir = temporaryDataDir();
    ids = new SequentialIds();
    api = await start('5');
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts a workflow triggered many times with the state it had, from its snapshot or without', async () => {
    await api.request('POST', '/v1/agents', { name: 'a', model: 'openai/gpt-4o-mini' });
    const { id } = (await api.request('POST', '/v1/workflows', { name: 'wf', steps: [{ agent: 'a', action: 'go' }] }))
      .body;
    for (let i = 0; i < 6; i++) expect((await trigger(id)).status).toBe(202);
    expect((await api.request('PATCH', `/v1/workflows/${id}`, { name: 'wf 2' }, MERGE_PATCH)).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await trigger(id)).status).toBe(202);
    await api.close(); // waits for the snapshot being written

    // 14 events (revisions 0 to 13): snapshots at revisions 4 and 9, the last one kept.
    const store = openStore();
    const snapshot = await store.readSnapshot(workflowStream(id));
    await store.close();
    expect(snapshot).toMatchObject({ revision: 9n, schemaVersion: 2, state: { id, name: 'wf 2', version: 2 } });

    api = await start('5');
    expect((await trigger(id)).body.workflowVersion).toBe(2);
    const stale = await api.request(
      'PATCH',
      `/v1/workflows/${id}`,
      { name: 'x' },
      { ...MERGE_PATCH, 'if-match': '"1"' },
    );
    expect(stale.status).toBe(412);
    const patched = await api.request(
      'PATCH',
      `/v1/workflows/${id}`,
      { name: 'wf 3' },
      { ...MERGE_PATCH, 'if-match': '"2"' },
    );
    expect(patched.body).toMatchObject({ name: 'wf 3', version: 3 });
    await api.close();

    api = await start('0');
    expect((await trigger(id)).body.workflowVersion).toBe(3);
    const runs = (await api.request('GET', `/v1/workflows/${id}/runs?limit=100`)).body.runs;
    expect(runs).toHaveLength(14);
  });
});
