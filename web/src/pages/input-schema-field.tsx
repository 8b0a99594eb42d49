import type { ProblemError } from '../api/client';
import { JsonSchemaField } from '../forms/json-schema-field';
import { EXAMPLE_INPUT_SCHEMA } from '../forms/json-schema-check';

export const INPUT_SCHEMA_PATHS = ['inputSchema'];

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
