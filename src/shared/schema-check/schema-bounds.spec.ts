import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, schemaBounds } from './schema-bounds';

const schemaBoundsProblems = (schema: Record<string, unknown>) => schemaBounds(schema).problems;

/** `count` $defs, each an anyOf of two $refs to the next: 2^count nodes to check, in about 65 bytes each. */
function chainOfDefs(count: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  $defs[`d${count}`] = { type: 'string' };
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs };
}

describe('schemaBoundsProblems', () => {
  it('accepts ordinary schemas: properties, RE2 patterns, $refs, a recursive tree', () => {
    const tree = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{2}-\\d{4}$' },
        name: { type: 'string', pattern: '^(?<first>\\p{L}+) \\u00e9?' },
        root: { $ref: '#/$defs/node' },
      },
      patternProperties: { '^x-[a-z]+$': { type: 'string' } },
      propertyNames: { pattern: '^[a-z-]+$' },
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } }, label: { enum: ['a', 'b'] } },
        },
      },
    };
    expect(schemaBoundsProblems(tree)).toEqual([]);
  });

  it('lists every pattern with where it is, for the worker to try on RE2', () => {
    const { problems, patterns } = schemaBounds({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^(a)\\1$' }, b: { items: { pattern: '(?<=x)y' } } },
      patternProperties: { '^(?!x)': {} },
      propertyNames: { pattern: '(?=a)' },
      $defs: { unused: { pattern: 'z' } },
    });
    expect(problems).toEqual([]);
    expect(patterns).toEqual([
      { at: ['patternProperties', '^(?!x)'], pattern: '^(?!x)' },
      { at: ['propertyNames', 'pattern'], pattern: '(?=a)' },
      { at: ['properties', 'a', 'pattern'], pattern: '^(a)\\1$' },
      { at: ['properties', 'b', 'items', 'pattern'], pattern: '(?<=x)y' },
      { at: ['$defs', 'unused', 'pattern'], pattern: 'z' },
    ]);
  });

  it('refuses $refs that expand past the bound, naming the smallest part that does', () => {
    expect(schemaBoundsProblems(chainOfDefs(11))).toEqual([]);
    const problems = schemaBoundsProblems(chainOfDefs(23));
    expect(problems).toEqual([
      { at: ['$defs', 'd11'], message: expect.stringContaining(`more than ${MAX_SCHEMA_NODES}`) },
    ]);
    expect(JSON.stringify(chainOfDefs(23)).length).toBeLessThan(1600);
  });

  it('counts enum entries and the subschemas of a large flat schema', () => {
    expect(schemaBoundsProblems({ enum: Array.from({ length: MAX_SCHEMA_NODES - 1 }, (_, i) => i) })).toEqual([]);
    expect(schemaBoundsProblems({ enum: Array.from({ length: MAX_SCHEMA_NODES }, (_, i) => i) })).toEqual([
      { at: [], message: expect.stringContaining('expands to 10001 schema nodes') },
    ]);
    // Shared $defs count once per place they are used, not once per reference to them.
    const shared = { $ref: '#/$defs/big' };
    const schema = {
      properties: { a: shared, b: shared },
      $defs: { big: { enum: Array.from({ length: 4000 }, (_, i) => i) } },
    };
    expect(schemaBoundsProblems(schema)).toEqual([]);
    expect(schemaBoundsProblems({ ...schema, properties: { a: shared, b: shared, c: shared } })).toEqual([
      { at: [], message: expect.stringContaining('more than 10000') },
    ]);
  });

  it('refuses a $ref that comes back to itself at the same place in the value', () => {
    expect(schemaBoundsProblems({ type: 'object', anyOf: [{ $ref: '#' }] })).toEqual([
      { at: [], message: expect.stringContaining('refers back to itself at the same place') },
    ]);
    expect(
      schemaBoundsProblems({
        $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { $ref: '#/$defs/a' } },
        $ref: '#/$defs/a',
      }),
    ).toEqual([{ at: ['$defs', 'a'], message: expect.stringContaining('would never end') }]);
  });

  it('resolves $refs through $id and $anchor', () => {
    const bomb = (ref: string) => ({ anyOf: [{ $ref: ref }, { $ref: ref }] });
    const $defs: Record<string, unknown> = { leaf: { $anchor: 'leaf0', type: 'string' } };
    for (let i = 1; i <= 15; i++) $defs[`l${i}`] = { $anchor: `leaf${i}`, ...bomb(`#leaf${i - 1}`) };
    expect(schemaBoundsProblems({ $id: 'https://example.com/s', $ref: '#leaf15', $defs })).toEqual([
      { at: ['$defs', 'l12'], message: expect.stringContaining('more than 10000') },
    ]);
    const nested = { $defs: { inner: { $id: 'inner', $defs: { x: bomb('#/$defs/x') } } } };
    expect(schemaBoundsProblems({ ...nested, $ref: 'inner#/$defs/x' })).toEqual([
      { at: ['$defs', 'inner', '$defs', 'x'], message: expect.stringContaining('would never end') },
    ]);
  });

  it(`refuses subschemas nested deeper than ${MAX_SCHEMA_DEPTH} levels`, () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MAX_SCHEMA_DEPTH + 1; i++) deep = { not: deep };
    expect(schemaBoundsProblems(deep)).toEqual([
      { at: expect.arrayContaining(['not']), message: `nests subschemas deeper than ${MAX_SCHEMA_DEPTH} levels` },
    ]);
  });
});
