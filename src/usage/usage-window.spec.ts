import { windowParts } from './usage.read-model';

describe('a usage window in whole days and the hours at its ends', () => {
  it.each([
    // [fromHour, toHour] → [days from, days to), [hours before the days), [hours after them)
    [
      '2026-11-03T09',
      '2026-11-05T03',
      ['2026-11-04', '2026-11-05'],
      ['2026-11-03T09', '2026-11-04T00'],
      ['2026-11-05T00', '2026-11-05T03'],
    ],
    [
      '2026-11-03T00',
      '2026-11-05T00',
      ['2026-11-03', '2026-11-05'],
      ['2026-11-03T00', '2026-11-03T00'],
      ['2026-11-05T00', '2026-11-05T00'],
    ],
    [
      '2026-11-03T09',
      '2026-11-03T11',
      ['2026-11-04', '2026-11-04'],
      ['2026-11-03T09', '2026-11-03T11'],
      ['2026-11-03T11', '2026-11-03T11'],
    ],
    [
      '2026-11-03T09',
      '2026-11-04T00',
      ['2026-11-04', '2026-11-04'],
      ['2026-11-03T09', '2026-11-04T00'],
      ['2026-11-04T00', '2026-11-04T00'],
    ],
    [
      '2026-12-31T23',
      '2027-01-02T01',
      ['2027-01-01', '2027-01-02'],
      ['2026-12-31T23', '2027-01-01T00'],
      ['2027-01-02T00', '2027-01-02T01'],
    ],
  ])('%s to %s', (fromHour, toHour, days, head, tail) => {
    const parts = windowParts(fromHour, toHour);
    expect([parts.fromDay, parts.toDay]).toEqual(days);
    expect([parts.fromHour, parts.headEnd]).toEqual(head);
    expect([parts.tailStart, parts.toHour]).toEqual(tail);
  });
});
