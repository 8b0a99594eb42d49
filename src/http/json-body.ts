import type { FastifyInstance } from 'fastify';
import { MalformedJson } from './problem';
import { FieldError, ValidationFailed } from '../shared/validation-failed';

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
      try {
        done(null, parseJsonBody(body as string, limits.jsonMaxDepth));
      } catch (error) {
        done(error as Error, undefined);
      }
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
  const problem = findProblem(value, maxDepth);
  if (problem) throw new ValidationFailed([problem]);
  return value;
}

/** The first thing in a parsed body that is refused, walking it with an explicit stack. */
export function findProblem(body: unknown, maxDepth: number): FieldError | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { path: path || '(body)', message: loneSurrogate('holds') };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) {
      const field = path.split(/[.[]/)[0] || '(body)';
      return { path: field, message: `is nested deeper than the limit of ${maxDepth} levels of objects and arrays` };
    }
    const entries = Array.isArray(value)
      ? value.map((item, i) => [`[${i}]`, item] as const)
      : Object.entries(value).map(([key, item]) => [key, item] as const);
    for (const [key, item] of entries) {
      const itemPath = key.startsWith('[') && Array.isArray(value) ? `${path}${key}` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value)) {
        if (key === '__proto__') return { path: itemPath, message: 'the key "__proto__" is not allowed' };
        if (LONE_SURROGATE.test(key)) return { path: path || '(body)', message: loneSurrogate('has a key that holds') };
      }
      stack.push({ value: item, path: itemPath, depth: depth + 1 });
    }
  }
  return undefined;
}

function loneSurrogate(what: string): string {
  return `${what} a lone UTF-16 surrogate (\\uD800-\\uDFFF), which is not valid Unicode text`;
}
