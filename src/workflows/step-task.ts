/** What a step's action may refer to: the run's input and the outputs of the steps before it. */
export interface StepTaskScope {
  input: Record<string, unknown>;
  outputs: Array<string | null>;
  /** The steps' structured answers (`outputObject`), where they had an `outputSchema`. */
  objects?: unknown[];
  /** The position of the step an id names (default: references are positions). */
  indexOf?: (ref: string) => number | undefined;
  /**
   * What only some steps read: a map step's item and its position (`{{item}}`, `{{item.<path>}}`, `{{index}}`), a
   * repeating step's previous answer and iteration (`{{previous.output}}`, `{{iteration}}`). A name absent here is
   * left as written.
   */
  locals?: {
    item?: unknown;
    index?: number;
    previous?: { output: string | null; outputObject?: unknown };
    iteration?: number;
  };
}

/** The longest task an agent run takes (the limit of `task` on POST /v1/agents/{id}/runs), rendered ones too. */
export const MAX_TASK_LENGTH = 100_000;

const PLACEHOLDER =
  /\{\{\s*(input(?:\.[^{}\s.]+)*|steps\.([^{}\s.]+)\.output((?:\.[^{}\s.]+)*)|(item|index|previous|iteration)((?:\.[^{}\s.]+)*))\s*\}\}/g;

/**
 * Fills `{{input.<path>}}`, `{{steps.<id or n>.output}}` and `{{steps.<n>.output.<path>}}` (a field of the step's
 * structured answer) into a step's action by plain substitution, never evaluated; in a map step also `{{item}}`,
 * `{{item.<path>}}` and `{{index}}`, in a repeating step `{{previous.output}}` and `{{iteration}}`. A string goes in as it is, any
 * other value (an object inserted whole) as JSON; a path that leads nowhere, or a step not run yet, becomes the
 * empty string. Anything else between braces is left as written. A task that would be longer than `maxLength`
 * is undefined: filling stops at the first placeholder past it, so `{{input}}` written many times over a large
 * input never builds the whole text.
 */
export function renderStepTask(action: string, scope: StepTaskScope, maxLength = MAX_TASK_LENGTH): string | undefined {
  const indexOf = indexOfIn(scope);
  let length = action.length;
  let tooLong = false;
  const task = action.replace(PLACEHOLDER, (match: string, ...groups: Array<string | undefined>) => {
    if (tooLong) return '';
    const value = placeholderValue(scope, indexOf, groups);
    if (value === NO_SUCH_STEP) return match;
    const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    length += text.length - match.length;
    tooLong = length > maxLength;
    return tooLong ? '' : text;
  });
  return tooLong || task.length > maxLength ? undefined : task;
}

/** A template that is one placeholder and nothing else; its groups are those of PLACEHOLDER. */
const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER.source}$`);

/**
 * What a template that is one placeholder and nothing else stands for, as the value itself rather than its text (a
 * list stays a list); undefined for any other template, and for a path that leads nowhere.
 */
export function wholeValue(template: string, scope: StepTaskScope): { value: unknown } | undefined {
  const match = WHOLE_PLACEHOLDER.exec(template);
  if (!match) return undefined;
  const value = placeholderValue(scope, indexOfIn(scope), match.slice(1));
  return value === NO_SUCH_STEP || value === undefined ? undefined : { value };
}

/**
 * The placeholders of `action` whose path leads nowhere (an input field, or a field of a step's structured answer,
 * that is not there: `renderStepTask` leaves nothing in their place), as written between the braces, each once.
 * A field that is there with the value null, or a step that ran without an output, is not missing.
 */
export function missingPaths(action: string, scope: StepTaskScope): string[] {
  const indexOf = indexOfIn(scope);
  const missing = new Set<string>();
  for (const [, ...groups] of action.matchAll(PLACEHOLDER)) {
    if (placeholderValue(scope, indexOf, groups) === undefined) missing.add(groups[0]!);
  }
  return [...missing];
}

/** The input paths the placeholders of a template read (`{{input.a.b}}`: `["a", "b"]`); `{{input}}` alone reads none. */
export function inputPathsIn(template: string): string[][] {
  return [...template.matchAll(PLACEHOLDER)].flatMap(([, path, step, , local]) =>
    step === undefined && local === undefined && path !== 'input' ? [path.split('.').slice(1)] : [],
  );
}

/** A reference that names nothing here (no such step; an item outside a map step, …): left as written. */
const NO_SUCH_STEP = Symbol('no such step');

function indexOfIn(scope: StepTaskScope): (ref: string) => number | undefined {
  return scope.indexOf ?? ((ref: string) => (/^\d+$/.test(ref) ? Number(ref) : undefined));
}

/**
 * What a placeholder stands for (its groups: the whole path, the step and the field of a step's output, the local
 * and its path): undefined when its path leads nowhere.
 */
function placeholderValue(
  scope: StepTaskScope,
  indexOf: (ref: string) => number | undefined,
  [path, step, field, local, localPath]: Array<string | undefined>,
): unknown {
  if (local !== undefined) {
    const locals = scope.locals as Record<string, unknown> | undefined;
    if (!locals || !(local in locals)) return NO_SUCH_STEP;
    // A position and an iteration are numbers: nothing to follow a path into.
    if (local === 'index' || local === 'iteration') return localPath ? NO_SUCH_STEP : locals[local];
    return valueAt(locals[local], localPath ? localPath.split('.').slice(1) : []);
  }
  if (step === undefined) return valueAt(scope.input, path!.split('.').slice(1));
  const index = indexOf(step);
  return index === undefined ? NO_SUCH_STEP : stepOutput(scope, index, field);
}

function stepOutput(scope: StepTaskScope, step: number, field: string | undefined): unknown {
  const object = scope.objects?.[step];
  if (!field) return object ?? scope.outputs[step];
  return valueAt(object, field.split('.').slice(1));
}

/** The value at `path` in `value` (own fields only); undefined when the path leads nowhere. */
export function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
