/**
 * A quick check, as the user types, that a text is a JSON Schema of an object, so that the form can say so at once.
 * It knows the common keywords and their shapes; the service compiles the schema for good when the form is sent,
 * and its answer is shown beside the field too.
 */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const TEXTS = ['title', 'description', 'format', '$ref', '$id', '$schema', '$comment'];

/** A starting point for an agent's structured answer. */
export const EXAMPLE_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'A short headline' },
    score: { type: 'number', minimum: 0, maximum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['title', 'score'],
  additionalProperties: false,
};

/** A starting point for a workflow's input. */
export const EXAMPLE_INPUT_SCHEMA = {
  type: 'object',
  properties: { topic: { type: 'string', maxLength: 200 } },
  required: ['topic'],
};

export type SchemaCheck = { ok: true; schema: Record<string, unknown> } | { ok: false; message: string };

/** Whether `text` is a JSON Schema whose root is `"type": "object"`; a message saying where it is not. */
export function checkObjectSchema(text: string): SchemaCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(value)) return { ok: false, message: 'Must be a JSON object, e.g. {"type": "object"}' };
  const problem = schemaProblem(value, '');
  if (problem) return { ok: false, message: problem };
  if (value.type !== 'object') return { ok: false, message: 'Must have "type": "object" at its root' };
  return { ok: true, schema: value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The first thing wrong in a (sub)schema at `at`, or undefined. */
function schemaProblem(schema: unknown, at: string): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) return `${where(at)} must be a schema (an object)`;
  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const unknown = types.find((t) => typeof t !== 'string' || !TYPES.has(t));
    if (unknown !== undefined || types.length === 0) {
      return `${where(at, 'type')} must be one of ${[...TYPES].join(', ')} (or a list of them)`;
    }
  }
  for (const key of COUNTS) {
    const value = schema[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return `${where(at, key)} must be a whole number, 0 or more`;
  }
  for (const key of NUMBERS) {
    if (schema[key] !== undefined && typeof schema[key] !== 'number') return `${where(at, key)} must be a number`;
  }
  for (const key of TEXTS) {
    if (schema[key] !== undefined && typeof schema[key] !== 'string') return `${where(at, key)} must be a string`;
  }
  if (schema.required !== undefined) {
    const required = schema.required;
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string'))
      return `${where(at, 'required')} must be a list of property names`;
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${where(at, 'enum')} must be a list`;
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string') return `${where(at, 'pattern')} must be a string`;
    try {
      new RegExp(schema.pattern, 'u');
    } catch (error) {
      return `${where(at, 'pattern')} is not a regular expression: ${(error as Error).message}`;
    }
  }
  for (const key of SCHEMAS) {
    const problem = schema[key] === undefined ? undefined : schemaProblem(schema[key], join(at, key));
    if (problem) return problem;
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) return `${where(at, key)} must be a non-empty list of schemas`;
    for (let i = 0; i < list.length; i++) {
      const problem = schemaProblem(list[i], `${join(at, key)}[${i}]`);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `${where(at, key)} must be an object of schemas`;
    for (const [name, sub] of Object.entries(map)) {
      const problem = schemaProblem(sub, join(join(at, key), name));
      if (problem) return problem;
    }
  }
  return undefined;
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

function where(at: string, key?: string): string {
  const path = key ? join(at, key) : at;
  return path ? `"${path}"` : 'The schema';
}
