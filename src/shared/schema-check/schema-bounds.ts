/**
 * The most schema nodes one check of a value may apply at one place in it: each subschema counts one, each `enum`
 * entry one, and a `$ref` what it points to (counted once however often it is referred to; a reference back into
 * itself, which goes one level deeper into the value, counts one). Real schemas count tens to a few thousand; a
 * schema whose `anyOf`s of `$ref`s double at each level counts millions and would take seconds per answer.
 */
export const MAX_SCHEMA_NODES = 10_000;
/** The deepest nesting of subschemas: real schemas nest a few levels; thousands would exhaust the stack. */
export const MAX_SCHEMA_DEPTH = 64;

/** Where in the schema (keys from its root) and why it is refused. */
export interface SchemaProblem {
  at: Array<string | number>;
  message: string;
}

/** A pattern of the schema (a `pattern`, a `patternProperties` key), and where it is. */
export interface SchemaPattern {
  at: Array<string | number>;
  pattern: string;
}

type Schema = Record<string, unknown>;
type Step = { keyword: string; into: 'place' | 'value' };

// The keywords whose values are subschemas, and whether each applies at the same place in the value ('place') or
// one level into it ('value'). Other keywords (const, enum, default, examples, unknown ones) hold data, not schemas.
const ONE: Step[] = [
  ...['not', 'if', 'then', 'else'].map((keyword) => ({ keyword, into: 'place' as const })),
  ...['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames']
    .concat(['unevaluatedItems', 'unevaluatedProperties'])
    .map((keyword) => ({ keyword, into: 'value' as const })),
];
const LISTS: Step[] = [
  ...['allOf', 'anyOf', 'oneOf'].map((keyword) => ({ keyword, into: 'place' as const })),
  ...['prefixItems', 'items'].map((keyword) => ({ keyword, into: 'value' as const })),
];
const MAPS: Step[] = [
  ...['dependentSchemas', 'dependencies'].map((keyword) => ({ keyword, into: 'place' as const })),
  ...['properties', 'patternProperties'].map((keyword) => ({ keyword, into: 'value' as const })),
];
const DEFINITIONS = ['$defs', 'definitions'];
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];
const ROOT_BASE = 'schema:///root';
const NO_KEYS: Array<string | number> = [];

interface Child {
  node: unknown;
  at: Array<string | number>;
  into: Step['into'] | 'definition';
}

/** The subschemas of `node`, each with how it applies and (when `at` is given, its keys from the root). */
function children(node: Schema, at?: Array<string | number>): Child[] {
  const found: Child[] = [];
  const keys = (...more: Array<string | number>) => (at ? [...at, ...more] : NO_KEYS);
  for (const { keyword, into } of ONE) {
    const sub = node[keyword];
    if (typeof sub === 'boolean' || isObject(sub)) found.push({ node: sub, at: keys(keyword), into });
  }
  for (const { keyword, into } of LISTS) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((sub, i) => found.push({ node: sub, at: keys(keyword, i), into }));
  }
  for (const { keyword, into } of MAPS) {
    const map = node[keyword];
    if (!isObject(map)) continue;
    for (const [key, sub] of Object.entries(map)) {
      if (typeof sub === 'boolean' || isObject(sub)) found.push({ node: sub, at: keys(keyword, key), into });
    }
  }
  for (const keyword of DEFINITIONS) {
    const map = node[keyword];
    if (!isObject(map)) continue;
    for (const [key, sub] of Object.entries(map)) found.push({ node: sub, at: keys(keyword, key), into: 'definition' });
  }
  return found;
}

/**
 * What makes `schema` unsafe to check user data against, before ajv compiles it: nesting deeper than
 * MAX_SCHEMA_DEPTH, more than MAX_SCHEMA_NODES nodes applied at one place, a `$ref` that comes back to itself at the
 * same place in the value (a check that would never end). And every pattern in it, for the worker to try on RE2
 * (compiling a pattern can take milliseconds: not on the event loop). The walk is linear in the schema: each node is
 * visited once, each `$ref` target's count is kept.
 */
export function schemaBounds(schema: Schema): { problems: SchemaProblem[]; patterns: SchemaPattern[] } {
  const problems: SchemaProblem[] = [];
  const index = new SchemaIndex();
  index.add(schema, [], ROOT_BASE, 0, problems);
  if (!problems.length) new ExpansionCount(index, problems).of(schema, 0);
  return { problems, patterns: index.patterns };
}

/** Every subschema's keys from the root and base URI, and the resources and anchors `$ref`s can name. */
class SchemaIndex {
  readonly at = new Map<object, Array<string | number>>();
  readonly base = new Map<object, string>();
  readonly patterns: SchemaPattern[] = [];
  private readonly resources = new Map<string, unknown>();
  private readonly anchors = new Map<string, unknown>();

  add(node: unknown, at: Array<string | number>, parentBase: string, level: number, problems: SchemaProblem[]): void {
    if (!isObject(node)) return;
    if (level > MAX_SCHEMA_DEPTH) {
      problems.push({ at, message: `nests subschemas deeper than ${MAX_SCHEMA_DEPTH} levels` });
      return;
    }
    const base = typeof node.$id === 'string' ? (resolveUrl(node.$id, parentBase) ?? parentBase) : parentBase;
    if (at.length === 0 || base !== parentBase) this.resources.set(withoutFragment(base), node);
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const name = node[keyword];
      if (typeof name === 'string') this.anchors.set(`${withoutFragment(base)}#${name}`, node);
    }
    this.at.set(node, at);
    this.base.set(node, base);
    this.patterns.push(...patternsOf(node, at));
    for (const child of children(node, at)) this.add(child.node, child.at, base, level + 1, problems);
  }

  /** The subschema `ref` names from a node of base URI `base`, or undefined (ajv will say it cannot resolve it). */
  resolve(ref: string, base: string): unknown {
    const url = resolveUrl(ref, base);
    if (url === undefined) return undefined;
    const hash = url.indexOf('#');
    const document = hash < 0 ? url : url.slice(0, hash);
    const fragment = hash < 0 ? '' : safeDecode(url.slice(hash + 1));
    const resource = this.resources.get(document);
    if (fragment === '' || resource === undefined) return resource;
    if (!fragment.startsWith('/')) return this.anchors.get(`${document}#${fragment}`);
    let node: unknown = resource;
    for (const token of fragment.slice(1).split('/')) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
    }
    return node;
  }
}

/** Counts the nodes a check applies at one place, `$ref`s expanded and their counts kept, as MAX_SCHEMA_NODES says. */
class ExpansionCount {
  private readonly counted = new Map<object, number>();
  /** The nodes being counted, each with how deep into the value it applies. */
  private readonly open = new Map<object, number>();

  constructor(
    private readonly index: SchemaIndex,
    private readonly problems: SchemaProblem[],
  ) {}

  of(node: unknown, depth: number): number {
    if (!isObject(node) || this.problems.length) return 1;
    const known = this.counted.get(node);
    if (known !== undefined) return known;
    const openAt = this.open.get(node);
    if (openAt !== undefined) {
      if (openAt === depth)
        this.refuse(node, 'refers back to itself at the same place in the value: a check would never end');
      return 1;
    }
    this.open.set(node, depth);
    const own = 1 + (Array.isArray(node.enum) ? node.enum.length : 0);
    const parts: number[] = [];
    for (const child of children(node)) {
      if (child.into !== 'definition') parts.push(this.of(child.node, child.into === 'value' ? depth + 1 : depth));
    }
    for (const keyword of REFERENCES) {
      const ref = node[keyword];
      if (typeof ref !== 'string') continue;
      const target = this.index.resolve(ref, this.index.base.get(node) ?? ROOT_BASE);
      if (target !== undefined) parts.push(this.of(target, depth));
    }
    this.open.delete(node);
    const total = Math.min(
      parts.reduce((sum, part) => sum + part, own),
      Number.MAX_SAFE_INTEGER,
    );
    // Named where the count first goes over: the smallest part of the schema that is too much on its own.
    if (total > MAX_SCHEMA_NODES && parts.every((part) => part <= MAX_SCHEMA_NODES)) {
      this.refuse(
        node,
        `expands to ${total} schema nodes to check (each $ref counted as what it points to), more than ${MAX_SCHEMA_NODES}`,
      );
    }
    this.counted.set(node, total);
    return total;
  }

  private refuse(node: Schema, message: string): void {
    if (!this.problems.length) this.problems.push({ at: this.index.at.get(node) ?? [], message });
  }
}

/** The `pattern` and `patternProperties` keys of a node, with where each is. */
function patternsOf(node: Schema, at: Array<string | number>): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  if (typeof node.pattern === 'string') found.push({ at: [...at, 'pattern'], pattern: node.pattern });
  if (isObject(node.patternProperties)) {
    for (const key of Object.keys(node.patternProperties))
      found.push({ at: [...at, 'patternProperties', key], pattern: key });
  }
  return found;
}

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function resolveUrl(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
