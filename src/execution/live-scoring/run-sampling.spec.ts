import { isSampled } from './run-sampling';

describe('isSampled', () => {
  const ids = Array.from({ length: 400 }, (_, i) => `agentrun_01JDQC1C2D3E4F5G6H7J8K${String(i).padStart(4, '0')}`);

  it('samples no run at 0 and every run at 1', () => {
    expect(ids.filter((id) => isSampled(id, 'polite', 0))).toEqual([]);
    expect(ids.filter((id) => isSampled(id, 'polite', 1))).toEqual(ids);
  });

  it('samples about the share asked for (within binomial bounds on 400 runs), the same way every time', () => {
    for (const sampling of [0.1, 0.5, 0.9]) {
      const count = ids.filter((id) => isSampled(id, 'polite', sampling)).length;
      const spread = 4 * Math.sqrt(400 * sampling * (1 - sampling));
      expect(Math.abs(count - 400 * sampling)).toBeLessThanOrEqual(spread);
    }
    const once = ids.map((id) => isSampled(id, 'polite', 0.5));
    expect(ids.map((id) => isSampled(id, 'polite', 0.5))).toEqual(once);
  });

  it('samples for each scorer on its own, and a larger share takes in the smaller', () => {
    const polite = ids.filter((id) => isSampled(id, 'polite', 0.5));
    const kind = ids.filter((id) => isSampled(id, 'kind', 0.5));
    expect(polite).not.toEqual(kind);
    const tenth = ids.filter((id) => isSampled(id, 'polite', 0.1));
    expect(tenth.every((id) => polite.includes(id))).toBe(true);
  });
});
