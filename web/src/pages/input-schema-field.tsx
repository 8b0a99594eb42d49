import type { ProblemError } from '../api/client';
import { JsonSchemaField } from '../forms/json-schema-field';
import { EXAMPLE_INPUT_SCHEMA } from '../forms/json-schema-check';

export const INPUT_SCHEMA_PATHS = ['inputSchema'];

/** The schema as the field shows it: pretty JSON, or blank for none. */
export function inputSchemaText(schema: Record<string, unknown> | undefined): string {
  return schema ? JSON.stringify(schema, null, 2) : '';
}

/**
 * The schema as the API takes it: blank is none (`null`); text that is not JSON goes as it is (typed loosely), for
 * the API to answer with a problem naming the field.
 */
export function inputSchemaBody(text: string): Record<string, unknown> | null {
  if (!text.trim()) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text as unknown as Record<string, unknown>;
  }
}

/** A workflow's input schema, as JSON: what a trigger's input must match, and the fields its steps may name. */
export function InputSchemaField({
  text,
  onChange,
  error,
  id,
}: {
  text: string;
  onChange: (text: string) => void;
  error: ProblemError | null;
  id: string;
}) {
  return (
    <JsonSchemaField
      id={id}
      label="Input schema (JSON Schema, optional)"
      path="inputSchema"
      text={text}
      onChange={onChange}
      error={error}
      example={EXAMPLE_INPUT_SCHEMA}
      hint={
        <>
          A trigger's input must match it, or the trigger is refused naming the field; a step's{' '}
          <code>{'{{input.<field>}}'}</code> must name one of its <code>properties</code>. Blank: any object.
        </>
      }
    />
  );
}
