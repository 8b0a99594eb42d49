import { findPii, ibanChecks, luhn } from './pii';
import { runChecks, runChecksOnValue } from './run-checks';

describe('findPii', () => {
  const kindsIn = (text: string) =>
    findPii(text, ['email', 'phone', 'card', 'iban', 'ip']).map((span) => [
      span.kind,
      text.slice(span.start, span.end),
    ]);

  it('finds each kind, and only numbers whose check holds', () => {
    expect(kindsIn('mail bob.smith+x@mail.example.co.uk now')).toEqual([['email', 'bob.smith+x@mail.example.co.uk']]);
    expect(kindsIn('card 4111 1111 1111 1111, not 4111 1111 1111 1112')).toEqual([['card', '4111 1111 1111 1111']]);
    // (The second one's digits would pass for a phone number: only IBANs are asked for here.)
    const ibans = 'pay GB82 WEST 1234 5698 7654 32 or GB82 WEST 1234 5698 7654 33';
    expect(findPii(ibans, ['iban']).map((span) => ibans.slice(span.start, span.end))).toEqual([
      'GB82 WEST 1234 5698 7654 32',
    ]);
    expect(kindsIn('from 10.0.0.1 and 2001:db8::1, not 999.1.1.1')).toEqual([
      ['ip', '10.0.0.1'],
      ['ip', '2001:db8::1'],
    ]);
    expect(kindsIn('call +44 20 7946 0958 today')).toEqual([['phone', '+44 20 7946 0958']]);
  });

  it('takes a card number for a card, not also for a phone number', () => {
    expect(kindsIn('4242-4242-4242-4242')).toEqual([['card', '4242-4242-4242-4242']]);
  });

  it('checks Luhn and IBAN digits', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(ibanChecks('DE89370400440532013000')).toBe(true);
    expect(ibanChecks('DE89370400440532013001')).toBe(false);
  });
});

describe('runChecks', () => {
  it('redacts, warns and blocks in order, saying where, never what', async () => {
    const checked = await runChecks(
      'bob@example.com wrote SECRET-42',
      [
        { type: 'pii', kinds: ['email'], action: 'redact' },
        { type: 'pattern', pattern: 'secret-\\d+', flags: 'i', action: 'warn' },
        { type: 'max_length', chars: 10, action: 'block' },
      ],
      'input',
    );
    expect(checked.text).toBe('[redacted:email] wrote SECRET-42');
    expect(checked.verdicts.map((v) => [v.verdict, v.spans])).toEqual([
      ['redacted', [{ start: 0, end: 15, kind: 'email' }]],
      ['warned', [{ start: 23, end: 32, kind: 'pattern' }]],
      ['blocked', [{ start: 10, end: 32, kind: 'length' }]],
    ]);
    expect(checked.blocked?.check).toBe(2);
    expect(JSON.stringify(checked.verdicts)).not.toContain('bob@');
  });

  it('answers a pattern that backtracks exponentially elsewhere in linear time', async () => {
    const started = Date.now();
    const checked = await runChecks(
      `${'a'.repeat(50_000)}b`,
      [{ type: 'pattern', pattern: '(a+)+$', action: 'block' }],
      'input',
    );
    expect(checked.blocked).toBeUndefined();
    // A backtracking engine takes longer than the universe's age here; RE2's linear scan takes milliseconds.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("redacts inside a value's strings, keeping its shape", async () => {
    const checked = await runChecksOnValue(
      { to: ['ann@example.org'], n: 3 },
      [{ type: 'pii', kinds: ['email'], action: 'redact' }],
      'toolResults',
    );
    expect(checked.value).toEqual({ to: ['[redacted:email]'], n: 3 });
  });

  it('asks a judge with the text as the checks before it left it; a judge that redacts takes the whole value', async () => {
    const seen: string[] = [];
    const judge = async (agent: string, stage: string, text: string) => {
      seen.push(`${agent}@${stage}: ${text}`);
      return { allow: false, reason: 'no' };
    };
    const checked = await runChecksOnValue(
      { to: 'ann@example.org' },
      [
        { type: 'pii', kinds: ['email'], action: 'redact' },
        { type: 'agent', agent: 'judge', action: 'redact' },
      ],
      'toolResults',
      judge,
    );
    expect(seen).toEqual(['judge@toolResults: {"to":"[redacted:email]"}']);
    expect(checked.value).toBe('[redacted:agent]');
    expect(checked.verdicts[1]).toMatchObject({ type: 'agent', verdict: 'redacted', reason: 'no' });
  });
});
