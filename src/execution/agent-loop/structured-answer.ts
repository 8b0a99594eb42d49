import { SchemaError, schemaErrors } from '../../shared/json-schema';
import { ModelRunError } from '../../models/model-run-error';

/** The answer did not match the run's `outputSchema`, even after the repair turn. */
export class OutputInvalid extends ModelRunError {
  constructor(readonly errors: SchemaError[]) {
    super('output_invalid', `The answer does not match outputSchema: ${describe(errors)}`);
  }
}

/**
 * The answer as JSON, if it is JSON that matches `schema`; otherwise why not. The check runs off the event loop,
 * within a time budget (see SchemaChecker): an answer that cannot be checked in time is not valid.
 */
export async function checkAnswer(
  schema: object,
  text: string,
): Promise<{ value: unknown } | { errors: SchemaError[] }> {
  let value: unknown;
  try {
    value = JSON.parse(withoutFence(text));
  } catch (error) {
    return {
      errors: [{ path: '', message: `is not JSON (${error instanceof Error ? error.message : 'unreadable'})` }],
    };
  }
  const errors = await schemaErrors(schema, value);
  return errors.length ? { errors } : { value };
}

/** What the model is told in the repair turn. */
export function repairMessage(errors: SchemaError[]): string {
  return (
    'Your answer does not match the required JSON Schema: ' +
    `${describe(errors)}. Answer again with only the corrected JSON value.`
  );
}

/** Models without a JSON mode often wrap JSON in a Markdown code fence. */
function withoutFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return fenced ? fenced[1] : text;
}

function describe(errors: SchemaError[]): string {
  return errors.map(({ path, message }) => `${path || '(the value)'} ${message}`).join('; ');
}
