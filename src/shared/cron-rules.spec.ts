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
    ['61 * * * *', /invalid minute field "61" \(0-59\): .*out of range/],
    ['* 24 * * *', /invalid hour field "24" \(0-23\): .*out of range/],
    ['* * 32 * *', /invalid day-of-month field "32" \(1-31\): .*out of range/],
    ['* * * 13 *', /invalid month field "13" .*out of range/],
    ['* * * * 8', /invalid day-of-week field "8" .*out of range/],
    ['5-2 * * * *', /invalid minute field "5-2" .*invalid range/],
    ['0 0 * * x', /invalid day-of-week field "x" .*alias/],
    ['a b c d e', /invalid minute field "a" .*alias/],
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
