import { SchemaError, schemaErrors, schemaFieldPath } from '../../shared/json-schema';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';

/**
 * A trigger's `input` against its workflow's `inputSchema` (ajv, on the schema checker's worker
 * thread, as an agent's answer is checked against its `outputSchema`): a 400 naming each field that does not match,
 * before anything is recorded.
 */
export async function checkRunInput(
  inputSchema: Record<string, unknown>,
  input: Record<string, unknown>,
): Promise<void> {
  const errors = await schemaErrors(inputSchema, input);
  if (errors.length)
    throw new ValidationFailed(errors.map(inputFieldError), "The input does not match the workflow's inputSchema");
}

/** ajv's error as a field of the body: `/user/age` is `input.user.age`; a required field missing is named itself. */
function inputFieldError({ path, message }: SchemaError): FieldError {
  const keys: Array<string | number> = path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
  // ajv reports a missing required field at the object that lacks it, naming the field in its message.
  const required = /^must have required property '(.+)'$/.exec(message);
  if (required) {
    const field = schemaFieldPath('input', [...keys, required[1]]);
    return { path: field, message: `${field} is required` };
  }
  const field = schemaFieldPath('input', keys);
  return { path: field, message: `${field} ${message}` };
}
