import { MemoryExpiry } from '../../src/memory/memory-expiry';
import { expectProblem } from '../support/problem-expectations';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestClock } from '../support/test-clock';
import { TestApp, startTestApp } from '../support/test-app';

/** The memory store over real HTTP, on both stores, under a test clock (2026-03-01 12:00 UTC). */
describe.each(storeFixtures().slice(0, 2))('memory (%s)', (storeName, createFixture) => {
  let fixture: StoreFixture | undefined;
  let app: TestApp;
  let clock: TestClock;

  beforeEach(async () => {
    clock = new TestClock();
    if (storeName !== 'sqlite') fixture = await createFixture();
    app = await startTestApp({ clock, ...(fixture && { fixture }) });
  });
  afterEach(async () => {
    await app.close();
    await fixture?.stop();
    fixture = undefined;
  });

  const ada = '/v1/memory/users%2Fada';
  const put = (key: string, body: object, namespace = ada) => app.request('PUT', `${namespace}/${key}`, body);

  it('puts, gets, lists, deletes an item, and keeps every version in its history', async () => {
    const first = await put('diet', { value: { diet: 'vegetarian' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      namespace: 'users/ada',
      key: 'diet',
      value: { diet: 'vegetarian' },
      version: 1,
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
      expiresAt: null,
      source: { eventId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    clock.advance(60_000);
    const second = await put('diet', { value: { diet: 'vegan' } });
    expect(second.body).toMatchObject({
      version: 2,
      createdAt: first.body.createdAt,
      updatedAt: '2026-03-01T12:01:00.000Z',
    });
    expect((await app.request('GET', `${ada}/diet`)).body).toEqual(second.body);
    await put('city', { value: 'Lisbon' });
    await put('diary.monday', { value: 'ran 5 km' });
    await put('elsewhere', { value: 1 }, '/v1/memory/users%2Fbob');
    expect((await app.request('GET', '/v1/memory')).body).toEqual({
      namespaces: [
        { namespace: 'users/ada', items: 3 },
        { namespace: 'users/bob', items: 1 },
      ],
      nextCursor: null,
    });
    const firstPage = (await app.request('GET', '/v1/memory?limit=1')).body;
    expect(firstPage.namespaces).toEqual([{ namespace: 'users/ada', items: 3 }]);
    const secondPage = (await app.request('GET', `/v1/memory?limit=1&cursor=${firstPage.nextCursor}`)).body;
    expect(secondPage.namespaces).toEqual([{ namespace: 'users/bob', items: 1 }]);
    const listed = (await app.request('GET', ada)).body;
    expect(listed.items.map((item: any) => item.key)).toEqual(['city', 'diary.monday', 'diet']);
    expect((await app.request('GET', `${ada}?prefix=di&limit=1`)).body).toMatchObject({
      items: [{ key: 'diary.monday' }],
      nextCursor: expect.any(String),
    });

    clock.advance(60_000);
    expect((await app.request('DELETE', `${ada}/diet`)).status).toBe(204);
    expectProblem(await app.request('GET', `${ada}/diet`), 404);
    expectProblem(await app.request('DELETE', `${ada}/diet`), 404);
    const history = (await app.request('GET', `${ada}/diet/history`)).body.versions;
    expect(history.map((v: any) => [v.version, v.value, v.removed])).toEqual([
      [1, { diet: 'vegetarian' }, null],
      [2, { diet: 'vegan' }, null],
      [3, null, 'deleted'],
    ]);
    // As it was: before the second put, after it, and after the delete.
    const asOf = (at: string) => app.request('GET', `${ada}/diet?asOf=${at}`);
    expect((await asOf('2026-03-01T12:00:30Z')).body.value).toEqual({ diet: 'vegetarian' });
    expect((await asOf('2026-03-01T12:01:00Z')).body.value).toEqual({ diet: 'vegan' });
    expectProblem(await asOf('2026-03-01T11:00:00Z'), 404);
    expectProblem(await asOf('2026-03-01T13:00:00Z'), 404);
    // A later put starts it again, at the next version.
    expect((await put('diet', { value: 'pescatarian' })).body).toMatchObject({ version: 4 });
  });

  it('forgets an item at the end of its time to live, in reads and search at once, then records it', async () => {
    await put('mood', { value: 'sunny today', ttlSeconds: 60 });
    await put('city', { value: 'sunny Lisbon' });
    const search = () => app.request('POST', '/v1/memory/search', { namespace: 'users/ada', query: 'sunny' });
    expect((await search()).body.items.map((item: any) => item.key).sort()).toEqual(['city', 'mood']);
    clock.advance(60_000);
    expectProblem(await app.request('GET', `${ada}/mood`), 404);
    expect((await search()).body.items.map((item: any) => item.key)).toEqual(['city']);
    expect((await app.request('GET', ada)).body.items.map((item: any) => item.key)).toEqual(['city']);
    expect(await app.app.get(MemoryExpiry).sweep()).toBe(1);
    const history = (await app.request('GET', `${ada}/mood/history`)).body.versions;
    expect(history.map((v: any) => v.removed)).toEqual([null, 'expired']);
    expect(await app.app.get(MemoryExpiry).sweep()).toBe(0);
  });

  it('searches by words, ranked by BM25, in a namespace and those below it, with a filter', async () => {
    await put('a', { value: { text: 'Ada likes green tea and green apples', kind: 'taste' } });
    await put('b', { value: { text: 'Ada once drank green tea', kind: 'event' } });
    await put('c', { value: { text: 'Ada lives in Lisbon', kind: 'taste' } });
    await put('d', { value: { text: 'green green green' } }, '/v1/memory/users%2Fada%2Fnotes');
    await put('e', { value: { text: 'green' } }, '/v1/memory/users%2Fbob');
    const search = (body: object) => app.request('POST', '/v1/memory/search', { namespace: 'users/ada', ...body });
    const found = (await search({ query: 'green tea' })).body.items;
    // Both words rank above one of them, however often; users/bob is not searched.
    expect(
      found
        .slice(0, 2)
        .map((item: any) => item.key)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(found.map((item: any) => item.key)[2]).toBe('d');
    expect(found).toHaveLength(3);
    expect(found[1].score).toBeGreaterThan(found[2].score);
    const tastes = (await search({ query: 'green Lisbon', filter: { kind: 'taste' } })).body.items;
    expect(tastes.map((item: any) => item.key).sort()).toEqual(['a', 'c']);
    expect((await search({ query: 'green', limit: 1 })).body.items).toHaveLength(1);
    // Words are words: FTS5's own syntax in a query is only text.
    expect((await search({ query: 'NEAR("green" OR tea) *' })).status).toBe(200);
    expectProblem(await search({ query: '!!!' }), 400);
    expectProblem(await search({ query: 'x', filter: { 'a"b': 1 } }), 400);
    expectProblem(await app.request('POST', '/v1/memory/search', { namespace: 'a//b', query: 'x' }), 400);
  });

  it('refuses what is not a namespace, a key or a value, and records nothing', async () => {
    expectProblem(await put('ok', {}), 400);
    expectProblem(await put('ok', { value: 'x'.repeat(70_000) }), 400);
    expectProblem(await put('ok', { value: 1, ttlSeconds: 0 }), 400);
    expectProblem(await put('bad key', { value: 1 }), 400);
    expectProblem(await put('ok', { value: 1 }, '/v1/memory/a%2F%2Fb'), 400);
    expectProblem(await put('ok', { value: 1 }, `/v1/memory/${Array(9).fill('n').join('%2F')}`), 400);
    expectProblem(await app.request('GET', `${ada}/ok?asOf=yesterday`), 400);
    expectProblem(await app.request('GET', `${ada}?cursor=@@`), 400);
    expect((await app.request('GET', ada)).body.items).toEqual([]);
    expectProblem(await app.request('GET', `${ada}/ok/history`), 404);
  });
});
