import type { FastifyInstance } from 'fastify';
import { MalformedJson, TooManyJsonValues } from './problem';
import { FieldError, ValidationFailed } from '../shared/validation-failed';

/** Bodies from this length on are handed on in a later turn of the event loop than the one that parsed them. */
const LARGE_BODY_CHARS = 64 * 1024;

/** Matches a UTF-16 surrogate that is not half of a pair: text that cannot be stored as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The limits a JSON body is held to: its bytes, its nesting, and how many values its arrays and objects hold. */
export interface JsonBodyLimits {
  bodyLimitBytes: number;
  jsonMaxDepth: number;
  jsonMaxValues: number;
}

/**
 * The JSON body parser (merge-patch bodies go through it too). The text is first counted: a body whose arrays and
 * objects hold more values than the limit is refused before it is parsed, because what a body costs to parse,
 * store and hand on grows with its values, not its bytes. It is then parsed as is (no prototype stripping) and
 * checked without recursion for depth, `__proto__` keys and lone surrogates, so no later step can overflow the
 * stack or store something else. Other media types have no parser, so Fastify answers them with a 415.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, limits: JsonBodyLimits) {
  fastify.removeAllContentTypeParsers();
  addJsonParser(fastify, 'application/json', limits);
}

/** Parses bodies of `contentType` as JSON (`parseJsonBody`), within the body limit. */
export function addJsonParser(fastify: FastifyInstance, contentType: string, limits: JsonBodyLimits): void {
  fastify.addContentTypeParser(
    contentType,
    { parseAs: 'string', bodyLimit: limits.bodyLimitBytes },
    (_request, body, done) => {
      let value: unknown;
      try {
        value = parseJsonBody(body as string, limits);
      } catch (error) {
        return done(error as Error, undefined);
      }
      // A large body took its turn of the event loop to parse: what the request does with it waits for a timer, so
      // that the timers that fell due meanwhile (an immediate queued from I/O would run before them) go first.
      if ((body as string).length >= LARGE_BODY_CHARS) setTimeout(() => done(null, value), 0);
      else done(null, value);
    },
  );
}

export function parseJsonBody(text: string, limits: Omit<JsonBodyLimits, 'bodyLimitBytes'>): unknown {
  if (text.trim() === '') throw new MalformedJson('The body is empty; send a JSON value');
  const scan = scanJson(text, limits.jsonMaxDepth);
  if (scan.values > limits.jsonMaxValues) throw new TooManyJsonValues(limits.jsonMaxValues);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MalformedJson(`The body is not valid JSON: ${(error as Error).message}`);
  }
  // Most bodies cannot hold anything refused, which their text tells faster than a walk of every value they hold.
  const problem = scan.mayBeRefused ? findProblem(value, limits.jsonMaxDepth) : undefined;
  if (problem) throw new ValidationFailed([problem]);
  return value;
}

/** What the text of a body tells before it is parsed. */
interface JsonScan {
  /** How many values its arrays and objects hold, all told: each array item and each member of an object. */
  values: number;
  /**
   * Whether it may hold something findProblem refuses: a `__proto__` key or a lone surrogate (each of which can
   * only be written out, or with a `\u` escape), or nesting deeper than `maxDepth`. False means it holds none of
   * them, and the walk is not needed; true leaves it to the walk, which also names the path.
   */
  mayBeRefused: boolean;
}

/**
 * One pass over the text outside its strings. A container's values are its commas plus one, unless it is empty
 * (its closing bracket follows its opening one). Text that is not valid JSON is counted all the same: the parse
 * after it says what is wrong.
 */
function scanJson(text: string, maxDepth: number): JsonScan {
  let mayBeRefused = text.includes('__proto__') || text.includes('\\u') || LONE_SURROGATE.test(text);
  let values = 0;
  let depth = 0;
  let previous = 0; // the last character outside strings that is not white space
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Past the string: a backslash escapes the character after it.
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === BACKSLASH) i++;
        else if (inside === QUOTE) break;
      }
    } else if (code === COMMA) values++;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) mayBeRefused = true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (previous !== OPEN_BRACE && previous !== OPEN_BRACKET) values++;
    } else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    previous = code;
  }
  return { values, mayBeRefused };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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
