import { VectorHit, VectorIndex } from './vector-index';

/** A small deterministic generator (mulberry32), so that every run searches the same vectors. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

function unitVector(next: () => number, dims: number): Float32Array {
  const vector = Float32Array.from({ length: dims }, next);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** The vector index's worker thread, with USearch, against a search by hand over the same vectors. */
describe('VectorIndex', () => {
  const next = random(7);
  const dims = 32;
  let index: VectorIndex;
  const lost = jest.fn();
  const items = new Map<number, { namespace: string; vector: Float32Array }>();

  beforeAll(() => {
    index = new VectorIndex(1, lost);
    // 900 items in users/a (most of the whole), 90 in users/b, 10 in users/b/c (a small part).
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      namespace: i < 900 ? 'users/a' : i < 990 ? 'users/b' : 'users/b/c',
      vector: unitVector(next, dims),
    }));
    batch.forEach(({ id, ...item }) => items.set(id, item));
    index.put(batch);
  });
  afterAll(() => index.close());

  function byHand(namespace: string, query: Float32Array, count: number): VectorHit[] {
    return [...items.entries()]
      .filter(([, item]) => item.namespace === namespace || item.namespace.startsWith(`${namespace}/`))
      .map(([id, item]) => ({ id, score: dot(item.vector, query) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, count);
  }

  async function expectSameAsByHand(namespace: string, count: number) {
    const query = unitVector(next, dims);
    const found = await index.search(namespace, query, count);
    const expected = byHand(namespace, query, count);
    expect(found.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    found.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i].score, 4));
  }

  it('finds exactly the nearest of the whole, of most of it, and of a small part of it', async () => {
    await expectSameAsByHand('users', 10);
    await expectSameAsByHand('users/a', 10);
    await expectSameAsByHand('users/b', 10);
    await expectSameAsByHand('users/b/c', 20);
    expect(await index.search('users/z', unitVector(next, dims), 5)).toEqual([]);
    // A namespace that only begins like another is not below it.
    expect(await index.search('users/b/', unitVector(next, dims), 5)).toEqual([]);
  });

  it('replaces a vector, moves an item to another namespace, and removes items', async () => {
    const query = unitVector(next, dims);
    index.put([{ id: 5, namespace: 'users/b/c', vector: query }]);
    items.set(5, { namespace: 'users/b/c', vector: query });
    expect((await index.search('users/b/c', query, 1))[0]).toEqual({ id: 5, score: expect.closeTo(1, 4) });
    index.remove([5, 1, 999]);
    [5, 1, 999].forEach((id) => items.delete(id));
    const after = await index.search('users', query, 1000);
    expect(after.map((hit) => hit.id)).not.toContain(5);
    expect(after).toHaveLength(997);
    await expectSameAsByHand('users/b', 10);
    await expectSameAsByHand('users', 50);
    expect(lost).not.toHaveBeenCalled();
  });

  it('stays exact where the 8-bit first pass cannot tell the vectors apart', async () => {
    // 120 vectors a hair apart (a small part of the whole, so 64 candidates are passed over first) around one direction: their 8-bit copies rank them almost at random.
    const centre = unitVector(next, dims);
    const near = Array.from({ length: 120 }, (_, i) => ({
      id: 2000 + i,
      namespace: 'close',
      vector: unitVector(() => 0, dims).map((_, d) => centre[d] + next() * 1e-3),
    }));
    near.forEach((item) => {
      const norm = Math.hypot(...item.vector);
      item.vector = item.vector.map((x) => x / norm);
      items.set(item.id, { namespace: item.namespace, vector: item.vector });
    });
    index.put(near);
    const query = unitVector(() => 0, dims).map((_, d) => centre[d] + next() * 1e-3);
    const unit = query.map((x) => x / Math.hypot(...query));
    const found = await index.search('close', unit, 5);
    expect(found.map((hit) => hit.id)).toEqual(byHand('close', unit, 5).map((hit) => hit.id));
  });
});
