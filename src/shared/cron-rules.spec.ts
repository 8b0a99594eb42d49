import { cronProblem, isTimeZone } from './cron-rules';

describe('cron validation', () => {
  it.each(['* * * * *', '*/5 * * * *', '0 9 * * MON-FRI', '0 0 1 1 *', '15,45 8-18 * * 1-5', '0 0 29 2 *'])(
    'accepts %s',
    (expression) => {
      expect(cronProblem(expression)).toBeUndefined();
    },
  );

  it.each([
    ['* * * *', /exactly five fields/],
    ['0 * * * * *', /exactly five fields/],
    ['61 * * * *', /out of range/],
    ['* 24 * * *', /out of range/],
    ['* * 32 * *', /out of range/],
    ['* * * 13 *', /out of range/],
    ['* * * * 8', /out of range/],
    ['5-2 * * * *', /invalid range/],
    ['a b c d e', /alias/],
    ['0 0 31 2 *', /never fires/],
  ])('rejects %s', (expression, reason) => {
    expect(cronProblem(expression)).toMatch(reason);
  });

  it('accepts a day that never exists when the other day field, restricted too, can fire (POSIX OR)', () => {
    expect(cronProblem('0 0 31 2 1')).toBeUndefined();
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
