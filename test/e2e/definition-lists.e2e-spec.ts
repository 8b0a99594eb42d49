import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

describe.each(storeFixtures())('finding agents and workflows over HTTP on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeEach(async () => {
    fixture = await createFixture();
    api = await startTestApp({ fixture, env: { RUN_EXECUTOR_ENABLED: 'false' } });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  /** Every item of a list, page by page, with the filters given again with each cursor. */
  async function pages(path: string, key: string, limit = 2): Promise<{ names: string[]; pages: number }> {
    const names: string[] = [];
    let cursor: string | null = null;
    let count = 0;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: any = await api.request(
        'GET',
        `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      names.push(...page.body[key].map((item: { name: string }) => item.name));
      cursor = page.body.nextCursor;
      count++;
    } while (cursor);
    return { names, pages: count };
  }

  it('filters agents by name prefix (case-insensitive) and status, paging with a cursor', async () => {
    const names = ['report-a', 'Reporter', 'writer', 'report-b', 'rep_x', 'report-c'];
    const ids: Record<string, string> = {};
    for (const name of names) {
      ids[name] = (await api.request('POST', '/v1/agents', { name, model: 'openai/m' })).body.id;
    }
    await api.request('DELETE', `/v1/agents/${ids['report-b']}`);

    expect(await pages('/v1/agents?name=rep', 'agents')).toEqual({
      names: ['report-a', 'Reporter', 'rep_x', 'report-c'],
      pages: 2,
    });
    expect((await pages('/v1/agents?name=REPORT', 'agents')).names).toEqual(['report-a', 'Reporter', 'report-c']);
    // `_` and `%` are matched as themselves, not as wildcards.
    expect((await pages('/v1/agents?name=rep_', 'agents')).names).toEqual(['rep_x']);
    expect((await pages('/v1/agents?name=%25', 'agents')).names).toEqual([]);
    expect((await pages('/v1/agents?status=archived', 'agents')).names).toEqual(['report-b']);
    expect((await pages('/v1/agents?status=archived&name=report', 'agents')).names).toEqual(['report-b']);
    expect((await pages('/v1/agents?status=active', 'agents', 1)).names).toEqual(
      names.filter((name) => name !== 'report-b'),
    );
  });

  it('filters workflows by status (active, paused, archived) and name prefix, paging with a cursor', async () => {
    await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/m' });
    const create = async (name: string) =>
      (await api.request('POST', '/v1/workflows', { name, steps: [{ agent: 'researcher', action: 'go' }] })).body.id;
    const daily1 = await create('daily one');
    await create('daily two');
    const weekly = await create('weekly');
    const daily3 = await create('daily three');
    await api.request('POST', `/v1/workflows/${daily1}/pause`);
    await api.request('DELETE', `/v1/workflows/${weekly}`);
    await api.request('DELETE', `/v1/workflows/${daily3}`);

    expect((await pages('/v1/workflows', 'workflows')).names).toEqual(['daily one', 'daily two']);
    expect((await pages('/v1/workflows?status=active', 'workflows')).names).toEqual(['daily two']);
    expect((await pages('/v1/workflows?status=paused', 'workflows')).names).toEqual(['daily one']);
    expect(await pages('/v1/workflows?status=archived', 'workflows', 1)).toEqual({
      names: ['weekly', 'daily three'],
      pages: 2,
    });
    expect((await pages('/v1/workflows?status=archived&name=Daily', 'workflows')).names).toEqual(['daily three']);
  });

  it('refuses an unknown status with a 400 that lists the statuses', async () => {
    const agents = await api.request('GET', '/v1/agents?status=paused');
    expect(agents.status).toBe(400);
    expect(agents.body.errors).toEqual([{ path: 'status', message: 'status must be one of active, archived' }]);
    const workflows = await api.request('GET', '/v1/workflows?status=gone');
    expect(workflows.status).toBe(400);
    expect(workflows.body.errors[0].message).toBe('status must be one of active, paused, archived');
  });
});
