import { SchemaChecker } from './checker';

/** `count` $defs, each an anyOf of two $refs to the next: checking a wrong value takes 2^count steps. */
function chainOfDefs(count: number): string {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  $defs[`d${count}`] = { type: 'string' };
  return JSON.stringify({ $ref: '#/$defs/d0', $defs });
}

describe('SchemaChecker', () => {
  const checker = new SchemaChecker();
  afterAll(() => checker.close());

  it('runs patterns in linear time: ^(a+)+$ and ^(a|aa)+$ answer at once, and correctly', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(a+)+$' } },
      propertyNames: { pattern: '^(s|a|aa)+$' },
    });
    const started = performance.now();
    expect(await checker.errors(schema, { s: `${'a'.repeat(5000)}b` })).toEqual([
      { path: '/s', message: 'must match pattern "^(a+)+$"' },
    ]);
    expect(await checker.errors(schema, { [`${'a'.repeat(5000)}b`]: 1 })).toEqual([
      { path: '', message: 'must match pattern "^(s|a|aa)+$"' },
      { path: '', message: 'property name must be valid' },
    ]);
    expect(await checker.errors(schema, { s: 'a'.repeat(5000), [`${'a'.repeat(5000)}`]: 1 })).toEqual([]);
    // Backtracking took 2^n steps: 29 characters took seconds, 5,000 would never end. (The margin is for a busy
    // test machine.)
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('keeps JavaScript pattern syntax: unanchored search, \\d, \\u escapes, named groups, Unicode classes', async () => {
    const schema = (pattern: string) => JSON.stringify({ type: 'string', pattern });
    expect(await checker.errors(schema('b'), 'abc')).toEqual([]);
    expect(await checker.errors(schema('^\\d{3}$'), '123')).toEqual([]);
    expect(await checker.errors(schema('^\\d{3}$'), '12a')).toHaveLength(1);
    expect(await checker.errors(schema('^caf\\u00e9$'), 'café')).toEqual([]);
    expect(await checker.errors(schema('^(?<word>\\p{L}+)$'), 'Ünïcödé')).toEqual([]);
  });

  it('refuses patterns RE2 cannot run or that are too large, by their index, before compiling the schema', async () => {
    const schema = JSON.stringify({ type: 'string' });
    const big = Array.from({ length: 10 }, (_, i) => `(?:x${i}\\p{L}{1000})`).join('|');
    const { patternProblems } = await checker.compile(schema, ['^ok$', '(a)\\1', '(?=a)', '(?<=a)b', big]);
    expect(patternProblems).toEqual([
      { index: 1, message: expect.stringContaining('invalid escape sequence') },
      { index: 2, message: expect.stringContaining('unsupported Perl syntax') },
      { index: 3, message: expect.stringContaining('no backreferences or lookarounds') },
      { index: 4, message: 'compiles to 10022 instructions, more than 5000' },
    ]);
    const many = Array.from({ length: 30 }, () => '^.{0,1000}$');
    expect((await checker.compile(schema, many)).patternProblems).toEqual([
      { index: 24, message: "brings the schema's patterns to 50100 instructions, more than 50000" },
    ]);
    expect(await checker.compile(schema, ['^[A-Z]{2}-\\d{4}$'])).toEqual({});
  });

  it('refuses to compile what ajv cannot compile, a pattern included', async () => {
    expect((await checker.compile(JSON.stringify({ type: 'string', pattern: '(a)\\1' }))).problem).toContain(
      'is not a valid JSON Schema: error parsing regexp',
    );
    expect((await checker.compile(JSON.stringify({ type: 'no-such-type' }))).problem).toContain(
      'is not a valid JSON Schema',
    );
    expect(await checker.compile(JSON.stringify({ type: 'object' }))).toEqual({});
  });

  it('checks uniqueItems in linear time, as JSON Schema compares items', async () => {
    const schema = JSON.stringify({ type: 'array', uniqueItems: true });
    // ajv compared every pair of objects: 9,000 took 2 to 3 s, 30,000 would take half a minute.
    const list = Array.from({ length: 30_000 }, (_, i) => ({ id: i, tags: [i, `${i}`] }));
    const started = performance.now();
    expect(await checker.errors(schema, list)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await checker.errors(schema, [...list, { tags: [3, '3'], id: 3 }])).toEqual([
      { path: '', message: 'must NOT have duplicate items (items ## 30000 and 3 are identical)' },
    ]);
    expect(await checker.errors(schema, [1, '1', [1], { a: 1 }, { a: '1' }, null, 'null'])).toEqual([]);
    expect(await checker.errors(schema, [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }])).toHaveLength(1);
  });

  it('ends a check past its budget with the reason, without stalling the event loop, and goes on', async () => {
    const budgeted = new SchemaChecker(1000);
    try {
      let last = performance.now();
      let stallMs = 0;
      const timer = setInterval(() => {
        stallMs = Math.max(stallMs, performance.now() - last);
        last = performance.now();
      }, 5);
      const errors = await budgeted.errors(chainOfDefs(30), 1).finally(() => clearInterval(timer));
      expect(errors).toEqual([{ path: '', message: 'could not be checked: the check took longer than 1000 ms' }]);
      expect(stallMs).toBeLessThan(500);
      expect(await budgeted.errors(JSON.stringify({ type: 'string' }), 1)).toEqual([
        { path: '', message: 'must be string' },
      ]);
    } finally {
      await budgeted.close();
    }
  });

  it('answers checks one after the other, each with its own outcome', async () => {
    const schema = JSON.stringify({ type: 'integer' });
    const outcomes = await Promise.all([1, 'x', 2].map((value) => checker.errors(schema, value)));
    expect(outcomes).toEqual([[], [{ path: '', message: 'must be integer' }], []]);
  });
});
