import { SchemaChecker, SchemaError } from './schema-check/checker';
import { SchemaProblem, schemaBounds } from './schema-check/schema-bounds';
import { FieldError } from './validation-failed';

export type { SchemaError, SchemaProblem };

/** The largest user-given JSON Schema (an `outputSchema`, an `inputSchema`) accepted, as JSON text. */
export const MAX_SCHEMA_BYTES = 64 * 1024;

// One worker thread per process compiles user-given schemas and checks values against them (see SchemaChecker).
const checker = new SchemaChecker();

/**
 * Why `schema` cannot be used as a JSON Schema for user data (each problem with its keys from the schema's root),
 * or none when it can: it must be an object of at most MAX_SCHEMA_BYTES, within the bounds schemaBounds checks,
 * with patterns RE2 runs, and compile.
 */
export async function jsonSchemaProblems(schema: unknown): Promise<SchemaProblem[]> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    return [{ at: [], message: 'must be a JSON Schema object' }];
  }
  const text = JSON.stringify(schema);
  const size = Buffer.byteLength(text);
  if (size > MAX_SCHEMA_BYTES)
    return [{ at: [], message: `must be at most ${MAX_SCHEMA_BYTES} bytes as JSON (it is ${size})` }];
  const { problems, patterns } = schemaBounds(schema as Record<string, unknown>);
  if (problems.length) return problems;
  const compiled = await checker.compile(
    text,
    patterns.map(({ pattern }) => pattern),
  );
  if (compiled.patternProblems) {
    return compiled.patternProblems.map(({ index, message }) => ({
      at: patterns[index].at,
      message: `${JSON.stringify(patterns[index].pattern)} cannot be used: ${message}`,
    }));
  }
  return compiled.problem === undefined ? [] : [{ at: [], message: compiled.problem }];
}

/**
 * A user-given schema of an object (an agent's or a run's `outputSchema`, a workflow's `inputSchema`) named `field`:
 * null or undefined, or a JSON Schema as `jsonSchemaProblems` accepts it whose root is `"type": "object"`. Each
 * problem is named by its path in the schema (`outputSchema.properties.title.pattern`).
 */
export async function objectSchemaErrors(field: string, schema: unknown): Promise<FieldError[]> {
  if (schema === undefined || schema === null) return [];
  const problems = await jsonSchemaProblems(schema);
  if (!problems.length && (schema as { type?: unknown }).type !== 'object') {
    problems.push({ at: [], message: 'must have "type": "object" at its root' });
  }
  return problems.map(({ at, message }) => {
    const path = schemaFieldPath(field, at);
    return { path, message: `${path} ${message}` };
  });
}

/** The ways `value` does not match `schema` (empty when it does), or why it could not be checked in time. */
export function schemaErrors(schema: object, value: unknown): Promise<SchemaError[]> {
  return checker.errors(JSON.stringify(schema), value);
}

/** A place in a schema as a field path: `outputSchema.properties.title.pattern`, `…patternProperties["^a+$"]`. */
export function schemaFieldPath(field: string, at: Array<string | number>): string {
  return at.reduce<string>((path, key) => {
    if (typeof key === 'number') return `${path}[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
  }, field);
}
