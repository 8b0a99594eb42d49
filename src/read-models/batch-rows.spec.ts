import { BatchRows } from './batch-rows';

describe('batch rows', () => {
  const setUp = () => {
    const written: string[] = [];
    const rows = new BatchRows<string>((row) => written.push(row));
    return { written, rows };
  };

  it('writes each row changed in a batch once, at its end, and reads it back from memory meanwhile', () => {
    const { written, rows } = setUp();
    let loads = 0;
    rows.batch(() => {
      expect(rows.get('a', () => (loads++, 'a0'))).toBe('a0');
      rows.set('a', 'a1');
      rows.set('a', 'a2');
      expect(rows.get('a', () => (loads++, 'stale'))).toBe('a2');
      rows.set('b', 'b0', false); // already written by the caller
      expect(written).toEqual([]);
    });
    expect(written).toEqual(['a2']);
    expect(loads).toBe(1);
  });

  it('keeps nothing outside a batch: reads load, writes go straight through', () => {
    const { written, rows } = setUp();
    rows.batch(() => rows.set('a', 'a1'));
    expect(rows.get('a', () => 'loaded')).toBe('loaded');
    expect(rows.has('a')).toBe(false);
    rows.set('a', 'a2');
    expect(written).toEqual(['a1', 'a2']);
  });

  it('writes nothing of a batch that fails, and forgets its rows', () => {
    const { written, rows } = setUp();
    expect(() =>
      rows.batch(() => {
        rows.set('a', 'a1');
        throw new Error('cannot apply');
      }),
    ).toThrow('cannot apply');
    expect(written).toEqual([]);
    expect(rows.has('a')).toBe(false);
  });
});
