import { TestClock } from '../../../test/support/test-clock';
import { currentTimeTool } from './current-time.tool';

describe('current_time', () => {
  const clock = new TestClock(new Date('2026-03-01T12:00:00.000Z'));
  const tool = currentTimeTool(clock);
  const signal = new AbortController().signal;

  it('answers UTC by default, from the injected clock', async () => {
    await expect(tool.execute({}, { signal })).resolves.toEqual({
      utc: '2026-03-01T12:00:00.000Z',
      timezone: 'UTC',
      local: '2026-03-01T12:00:00.000+00:00',
      weekday: 'Sunday',
    });
  });

  it('gives the local time in an IANA zone, with its offset', async () => {
    await expect(tool.execute({ timezone: 'Europe/Paris' }, { signal })).resolves.toMatchObject({
      utc: '2026-03-01T12:00:00.000Z',
      timezone: 'Europe/Paris',
      local: '2026-03-01T13:00:00.000+01:00',
    });
    clock.set('2026-07-01T23:30:00.250Z');
    await expect(tool.execute({ timezone: 'Asia/Kolkata' }, { signal })).resolves.toMatchObject({
      local: '2026-07-02T05:00:00.250+05:30',
      weekday: 'Thursday',
    });
  });

  it('fails clearly on an unknown zone or a wrong input type', async () => {
    await expect(tool.execute({ timezone: 'Mars/Olympus' }, { signal })).rejects.toThrow(
      'Unknown time zone "Mars/Olympus"',
    );
    await expect(tool.execute({ timezone: 3 }, { signal })).rejects.toThrow(/Invalid input for current_time/);
  });

  it('describes its input as a JSON Schema object', () => {
    expect(tool.inputSchema).toMatchObject({ type: 'object', properties: { timezone: { type: 'string' } } });
  });
});
