/** What a step's action may refer to: the run's input and the outputs of the steps before it. */
export interface StepTaskScope {
  input: Record<string, unknown>;
  outputs: Array<string | null>;
  /** The steps' structured answers (`outputObject`), where they had an `outputSchema`. */
  objects?: unknown[];
  /** The position of the step an id names (default: references are positions). */
  indexOf?: (ref: string) => number | undefined;
}

/** The longest task an agent run takes (the limit of `task` on POST /v1/agents/{id}/runs), rendered ones too. */
export const MAX_TASK_LENGTH = 100_000;

const PLACEHOLDER = /\{\{\s*(input(?:\.[^{}\s.]+)*|steps\.([^{}\s.]+)\.output((?:\.[^{}\s.]+)*))\s*\}\}/g;

/**
 * Fills `{{input.<path>}}`, `{{steps.<id or n>.output}}` and `{{steps.<n>.output.<path>}}` (a field of the step's
 * structured answer) into a step's action by plain substitution, never evaluated. A string goes in as it is, any
 * other value (an object inserted whole) as JSON; a path that leads nowhere, or a step not run yet, becomes the
 * empty string. Anything else between braces is left as written. A task that would be longer than `maxLength`
 * is undefined: filling stops at the first placeholder past it, so `{{input}}` written many times over a large
 * input never builds the whole text.
 */
export function renderStepTask(action: string, scope: StepTaskScope, maxLength = MAX_TASK_LENGTH): string | undefined {
  const indexOf = scope.indexOf ?? ((ref: string) => (/^\d+$/.test(ref) ? Number(ref) : undefined));
  let length = action.length;
  let tooLong = false;
  const task = action.replace(PLACEHOLDER, (match: string, path: string, step?: string, field?: string) => {
    if (tooLong) return '';
    const index = step === undefined ? undefined : indexOf(step);
    if (step !== undefined && index === undefined) return match;
    const value = index !== undefined ? stepOutput(scope, index, field) : lookUp(scope.input, path.split('.').slice(1));
    const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    length += text.length - match.length;
    tooLong = length > maxLength;
    return tooLong ? '' : text;
  });
  return tooLong || task.length > maxLength ? undefined : task;
}

function stepOutput(scope: StepTaskScope, step: number, field: string | undefined): unknown {
  const object = scope.objects?.[step];
  if (!field) return object ?? scope.outputs[step];
  return lookUp(object, field.split('.').slice(1));
}

function lookUp(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
