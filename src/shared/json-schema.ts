import { SchemaChecker, SchemaError } from './schema-check/checker';
import { SchemaProblem, schemaBounds } from './schema-check/schema-bounds';

export type { SchemaError, SchemaProblem };

/** The largest user-given JSON Schema (an `outputSchema`) accepted, as JSON text. */
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
