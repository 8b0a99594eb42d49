/** What a step's action may refer to: the run's input and the outputs of the steps before it. */
export interface StepTaskScope {
  input: Record<string, unknown>;
  outputs: Array<string | null>;
}

const PLACEHOLDER = /\{\{\s*(input(?:\.[^{}\s.]+)*|steps\.(\d+)\.output)\s*\}\}/g;

/**
 * Fills `{{input.<path>}}` and `{{steps.<n>.output}}` into a step's action by plain substitution, never
 * evaluated. A string goes in as it is, any other value as JSON; a path that leads nowhere, or a step not run
 * yet, becomes the empty string. Anything else between braces is left as written.
 */
export function renderStepTask(action: string, scope: StepTaskScope): string {
  return action.replace(PLACEHOLDER, (_match, path: string, step?: string) => {
    const value = step !== undefined ? scope.outputs[Number(step)] : lookUp(scope.input, path.split('.').slice(1));
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
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
