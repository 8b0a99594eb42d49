import { isoTime } from './clock';

describe('isoTime', () => {
  it('gives the same string for the same instant, and follows a Date changed in place', () => {
    const now = new Date('2026-11-27T13:00:00.000Z');
    const first = isoTime(now);
    expect(first).toBe('2026-11-27T13:00:00.000Z');
    expect(isoTime(now)).toBe(first);
    expect(isoTime(new Date(now.getTime()))).toBe(first);
    expect(() => isoTime(new Date(NaN))).toThrow(RangeError);
    expect(isoTime(new Date('2026-11-27T14:00:00.000Z'))).toBe('2026-11-27T14:00:00.000Z');
    now.setTime(Date.parse('2026-11-27T15:00:00.000Z'));
    expect(isoTime(now)).toBe('2026-11-27T15:00:00.000Z');
  });
});
