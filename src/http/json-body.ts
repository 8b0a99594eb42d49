import type { FastifyInstance } from 'fastify';
import { MalformedJson } from './problem';
import { FieldError, ValidationFailed } from '../shared/validation-failed';

/** Bodies from this length on are handed on in a later turn of the event loop than the one that parsed them. */
const LARGE_BODY_CHARS = 64 * 1024;

/** Matches a UTF-16 surrogate that is not half of a pair: text that cannot be stored as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * The JSON body parser (merge-patch bodies go through it too): parsed as is (no prototype stripping), then checked without recursion for depth,
 * `__proto__` keys and lone surrogates, so no later step can overflow the stack or store something else.
 * Other media types have no parser, so Fastify answers them with a 415.
 */
export function registerJsonBodyParser(
  fastify: FastifyInstance,
  limits: { bodyLimitBytes: number; jsonMaxDepth: number },
) {
  fastify.removeAllContentTypeParsers();
  addJsonParser(fastify, 'application/json', limits);
}

/** Parses bodies of `contentType` as JSON (`parseJsonBody`), within the body limit. */
export function addJsonParser(
  fastify: FastifyInstance,
  contentType: string,
  limits: { bodyLimitBytes: number; jsonMaxDepth: number },
): void {
  fastify.addContentTypeParser(
    contentType,
    { parseAs: 'string', bodyLimit: limits.bodyLimitBytes },
    (_request, body, done) => {
      let value: unknown;
      try {
        value = parseJsonBody(body as string, limits.jsonMaxDepth);
      } catch (error) {
        return done(error as Error, undefined);
      }
      // A large body took its turn of the event loop to parse: what the request does with it waits for the next.
      if ((body as string).length >= LARGE_BODY_CHARS) setImmediate(() => done(null, value));
      else done(null, value);
    },
  );
}

export function parseJsonBody(text: string, maxDepth: number): unknown {
  if (text.trim() === '') throw new MalformedJson('The body is empty; send a JSON value');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MalformedJson(`The body is not valid JSON: ${(error as Error).message}`);
  }
  // Most bodies cannot hold anything refused, which their text tells faster than a walk of every value they hold.
  const problem = mayBeRefused(text, maxDepth) ? findProblem(value, maxDepth) : undefined;
  if (problem) throw new ValidationFailed([problem]);
  return value;
}

/**
 * Whether the JSON text may hold something findProblem refuses: a `__proto__` key or a lone surrogate (each of
 * which can only be written out, or with a `\u` escape), or nesting deeper than `maxDepth`. False means it holds
 * none of them, and the walk is not needed; true leaves it to the walk, which also names the path.
 */
function mayBeRefused(text: string, maxDepth: number): boolean {
  if (text.includes('__proto__') || text.includes('\\u') || LONE_SURROGATE.test(text)) return true;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Past the string: a backslash escapes the character after it.
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === BACKSLASH) i++;
        else if (inside === QUOTE) break;
      }
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true; // { [
    } else if (code === 0x7d || code === 0x5d) depth--; // } ]
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A value still to look at, with how it was reached (its path is spelt out only when it is refused). */
interface Pending {
  value: unknown;
  depth: number;
  parent?: Pending;
  key?: string | number;
}

/**
 * The first thing in a parsed body that is refused, walking it with an explicit stack. Numbers, booleans and null
 * are passed over where they stand, and a path is built only for what is refused: a body of 500,000 array items
 * took 150-250 ms to walk when every item got its path string and an entry of its own.
 */
export function findProblem(body: unknown, maxDepth: number): FieldError | undefined {
  const stack: Pending[] = [{ value: body, depth: 1 }];
  while (stack.length > 0) {
    const pending = stack.pop()!;
    const { value, depth } = pending;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { path: pathOf(pending) || '(body)', message: loneSurrogate('holds') };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) {
      const field = pathOf(pending).split(/[.[]/)[0] || '(body)';
      return { path: field, message: `is nested deeper than the limit of ${maxDepth} levels of objects and arrays` };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'object' ? item !== null : typeof item === 'string') {
          stack.push({ value: item, depth: depth + 1, parent: pending, key: i });
        }
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__')
        return {
          path: pathOf({ value: undefined, depth, parent: pending, key }),
          message: 'the key "__proto__" is not allowed',
        };
      if (LONE_SURROGATE.test(key))
        return { path: pathOf(pending) || '(body)', message: loneSurrogate('has a key that holds') };
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: pending, key });
    }
  }
  return undefined;
}

/** `a.b[2].c`: the path of a value, from the keys of the values it was reached through. */
function pathOf(pending: Pending): string {
  const keys: Array<string | number> = [];
  for (let at: Pending | undefined = pending; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
  return keys.reduce<string>(
    (path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key),
    '',
  );
}

function loneSurrogate(what: string): string {
  return `${what} a lone UTF-16 surrogate (\\uD800-\\uDFFF), which is not valid Unicode text`;
}
