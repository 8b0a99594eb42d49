import Ajv, { ErrorObject, ValidateFunction } from 'ajv';

/** The largest `outputSchema` accepted, as JSON text. */
export const MAX_SCHEMA_BYTES = 64 * 1024;

export interface SchemaError {
  /** A JSON Pointer into the value (`/title`), or empty for the value itself. */
  path: string;
  message: string;
}

// Unknown keywords (`title`, `examples`, vendor extensions) are allowed; the schema itself must still be valid
// against the meta-schema. Formats are not checked (ajv-formats is not loaded): `format` is an annotation here.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_CACHED = 200;

/** Why `schema` cannot be used as a JSON Schema, or undefined when it can. */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'must be a JSON Schema object';
  const size = Buffer.byteLength(JSON.stringify(schema));
  if (size > MAX_SCHEMA_BYTES) return `must be at most ${MAX_SCHEMA_BYTES} bytes as JSON (it is ${size})`;
  try {
    validatorOf(schema);
    return undefined;
  } catch (error) {
    return `is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The ways `value` does not match `schema` (empty when it does). */
export function schemaErrors(schema: object, value: unknown): SchemaError[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(toSchemaError);
}

function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    // The schema is compiled once; its `$id`, if any, must not clash with the next compile of the same text.
    if (typeof (schema as { $id?: unknown }).$id === 'string') ajv.removeSchema((schema as { $id: string }).$id);
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

function toSchemaError(error: ErrorObject): SchemaError {
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return { path: error.instancePath, message: `${error.message ?? 'is not valid'}${extra}` };
}
