import { objectSchemaErrors } from '../../shared/json-schema';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { inputPathsIn } from '../step-task';
import { WorkflowStep, templatesOf } from '../workflow/workflow.state';

/**
 * A workflow's `inputSchema`, when it has one: within the bounds of a safe check, as an agent's `outputSchema` is
 * (so a hostile schema is refused the same way), and declaring every input field the steps' actions name. An update
 * that keeps the schema as it was passes `checkBounds: false`. A 400 names each field that does not hold.
 */
export async function checkInputSchema(
  inputSchema: Record<string, unknown> | null | undefined,
  steps: WorkflowStep[],
  checkBounds = true,
): Promise<void> {
  if (!inputSchema) return;
  const errors = checkBounds ? await objectSchemaErrors('inputSchema', inputSchema) : [];
  if (!errors.length) errors.push(...undeclaredInputs(inputSchema, steps));
  if (errors.length) throw new ValidationFailed(errors);
}

/**
 * The actions whose `{{input.<path>}}` names a field the schema does not declare. A path is followed down through
 * the `properties` the schema writes out, as far as they go: where a level has no `properties` (any object, a
 * `$ref`, an `allOf`), nothing below it is checked.
 */
export function undeclaredInputs(schema: Record<string, unknown>, steps: WorkflowStep[]): FieldError[] {
  return steps.flatMap((step, i) => {
    const reported = new Set<string>();
    return templatesOf(step).flatMap(({ field: template, text }) =>
      inputPathsIn(text).flatMap((path): FieldError[] => {
        const undeclared = undeclaredPart(schema, path);
        const field = undeclared && `input.${undeclared.at.join('.')}`;
        if (!undeclared || reported.has(field!)) return [];
        reported.add(field!);
        const known = undeclared.known.length ? undeclared.known.join(', ') : 'none';
        const message = `{{input.${path.join('.')}}}: inputSchema declares no ${field} (its properties there: ${known})`;
        return [{ path: `steps[${i}].${template}`, message }];
      }),
    );
  });
}

/** The first part of `path` the schema's `properties` do not declare, and the properties declared there. */
function undeclaredPart(schema: unknown, path: string[]): { at: string[]; known: string[] } | undefined {
  let node = schema;
  for (let depth = 0; depth < path.length; depth++) {
    const properties = node !== null && typeof node === 'object' ? (node as { properties?: unknown }).properties : null;
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return undefined;
    if (!Object.hasOwn(properties, path[depth])) {
      return { at: path.slice(0, depth + 1), known: Object.keys(properties) };
    }
    node = (properties as Record<string, unknown>)[path[depth]];
  }
  return undefined;
}
