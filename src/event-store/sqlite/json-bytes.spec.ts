import { MAX_MEMBERS_WRITTEN_HERE, MAX_WRITTEN_HERE, NOT_PLAIN, NO_ROOM, writeJson, writeText } from './json-bytes';

/** What writeJson writes for `value`, in a buffer of `size` bytes. */
function written(value: unknown, size = 4096): string | number {
  const bytes = Buffer.alloc(size);
  const end = writeJson(value, bytes, 0);
  return end < 0 ? end : bytes.toString('utf8', 0, end);
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('writeJson', () => {
  const plain: Array<[string, unknown]> = [
    [
      'an event',
      { workflowId: 'wf_1', input: {}, trigger: { type: 'schedule', scheduledFor: '2026-01-01T00:00:00.000Z' } },
    ],
    ['numbers', [0, -0, 1.5, -2e-7, 1e21, 2 ** 53, Number.MAX_VALUE, NaN, Infinity, -Infinity]],
    [
      'text to escape',
      ['"quoted"', 'back\\slash', 'line\nbreak\ttab\u0001', 'Grüße 東京 🌦️', '\u2028', '\ud834 lone', '~\u007f'],
    ],
    ['omitted values', { a: undefined, b: () => 1, c: Symbol('c'), d: null, e: [undefined, () => 1, Symbol('e')] }],
    ['key order', { b: 1, a: 2, 10: 'ten', 2: 'two', 'x y': true, '': false }],
    ['keys to escape', { é: 1, 'a"b': 2, 'new\nline': 3 }],
    ['holes and nesting', [[], {}, [[[1]]], new Array(3), { a: { b: { c: [1, { d: 'e' }] } } }]],
    ['a null prototype', Object.assign(Object.create(null) as object, { a: 1 })],
    ['top-level scalars', ['text', 1, true, null]],
  ];

  it.each(plain)('writes %s byte for byte as JSON.stringify', (_, value) => {
    expect(written(value)).toBe(JSON.stringify(value));
  });

  it('leaves to JSON.stringify what is not plain data', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    for (const value of [
      { at: new Date(0) },
      { toJSON: () => 'mine' },
      [new Point(1, 2)],
      { n: 1n },
      cycle,
      deep,
      undefined,
      [new String('boxed')],
    ])
      expect(written(value)).toBe(NOT_PLAIN);
  });

  it('leaves to JSON.stringify a value whose JSON is longer than MAX_WRITTEN_HERE, however much room there is', () => {
    const large = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, i]));
    expect(Buffer.byteLength(JSON.stringify(large))).toBeGreaterThan(MAX_WRITTEN_HERE);
    expect(written(large, 4 * MAX_WRITTEN_HERE)).toBe(NOT_PLAIN);
    const small = { list: Array.from({ length: 1000 }, (_, i) => i) };
    expect(written(small, 4 * MAX_WRITTEN_HERE)).toBe(JSON.stringify(small));
  });

  it('leaves to JSON.stringify an object of more than MAX_MEMBERS_WRITTEN_HERE members, however short', () => {
    const members = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [i.toString(36), 0]));
    const most = { nested: members(MAX_MEMBERS_WRITTEN_HERE) };
    expect(written(most, MAX_WRITTEN_HERE)).toBe(JSON.stringify(most));
    expect(written({ nested: members(MAX_MEMBERS_WRITTEN_HERE + 1) }, MAX_WRITTEN_HERE)).toBe(NOT_PLAIN);
  });

  it('tells when the buffer has no room, whatever the point where it runs out', () => {
    const value = { text: 'plain \"quoted\" text', list: [1, 'two', { three: null }], flag: false };
    const json = JSON.stringify(value);
    const size = Buffer.byteLength(json);
    for (let room = 0; room < size; room++) expect(written(value, room)).toBe(NO_ROOM);
    expect(written(value, size)).toBe(json);
  });
});

describe('writeText', () => {
  it('writes any text as UTF-8, or tells when it has no room', () => {
    for (const text of ['ascii', 'Grüße 東京 🌦️', '']) {
      const bytes = Buffer.alloc(64);
      const end = writeText(text, bytes, 3);
      expect(bytes.toString('utf8', 3, end)).toBe(text);
    }
    expect(writeText('abc', Buffer.alloc(2), 0)).toBe(NO_ROOM);
    expect(writeText('ü', Buffer.alloc(2), 0)).toBe(NO_ROOM); // 2 bytes, but room is checked for 3 per unit
  });

  it('writes a long text whole, or tells when it has no room, whatever its characters', () => {
    for (const text of ['a'.repeat(5000), 'Grüße '.repeat(1000)]) {
      const size = Buffer.byteLength(text);
      const bytes = Buffer.alloc(size + 3);
      expect(writeText(text, bytes, 3)).toBe(size + 3);
      expect(bytes.toString('utf8', 3)).toBe(text);
      expect(writeText(text, Buffer.alloc(size + 2), 3)).toBe(NO_ROOM);
    }
  });
});
