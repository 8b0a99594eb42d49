import jsonLogic from 'json-logic-js';

/**
 * How much work one evaluation of a step's `when` may do, in steps: a step is one rule node applied (an operation,
 * an argument, each item of a literal array, each item `map`, `filter`, `reduce`, `all`, `some` or `none` goes
 * through), and an operation's own work on what it reads and makes (`in`, `cat`, `merge`, `substr`, comparisons…)
 * counts one step per 10 array items and per 100 characters. Real rules take tens to thousands of steps (`some`
 * over an input list about four an item). 50,000 took 3 to 6 ms once the process had run such rules before, and
 * 15 to 25 ms the first time (the library's code not yet compiled), so a rule written to loop (`some` over a long
 * input with an `in` over a long list, nested `map`s, a `reduce` that doubles its accumulator) stops there instead
 * of holding the event loop for seconds.
 */
export const CONDITION_BUDGET_STEPS = 50_000;

/**
 * The budget as the messages write it. Formatted once, when the module loads: a process's first use of
 * `toLocaleString` loads the locale data, which took 10 to 15 ms, too long to spend while a condition runs.
 */
export const CONDITION_BUDGET_TEXT = `${CONDITION_BUDGET_STEPS.toLocaleString('en-US')} evaluation steps`;

/** A condition used up its budget (CONDITION_BUDGET_STEPS) before it had an answer. */
export class ConditionBudgetExceeded extends Error {
  constructor() {
    super(`The condition took more than ${CONDITION_BUDGET_TEXT}`);
  }
}

/** The operations json-logic-js runs itself, handing their arguments to `apply` one by one as they go. */
const CONTROL = new Set(['if', '?:', 'and', 'or', 'filter', 'map', 'reduce', 'all', 'none', 'some']);

interface Meter {
  left: number;
  /** Whether the node being applied is an argument of an operation that works on its value (not a control one). */
  intoOperation: boolean;
}

/** The meter of the evaluation under way; none outside one, so other calls of `apply` cost nothing extra. */
let meter: Meter | undefined;

type Apply = (logic: unknown, data: unknown) => unknown;
const METERED = Symbol.for('workflows.condition-budget');
const library = jsonLogic as unknown as { apply: Apply; [METERED]?: true };

/**
 * json-logic-js recurses through `jsonLogic.apply` (not a closure), so a wrapper installed on it once sees every
 * node of every evaluation, including those of the library's own recursion; it counts only inside `withBudget`.
 */
if (!library[METERED]) {
  const applyNode = library.apply;
  library.apply = function metered(logic: unknown, data: unknown): unknown {
    const current = meter;
    if (!current) return applyNode(logic, data);
    spend(current, 1);
    const intoOperation = current.intoOperation;
    const operation = operationOf(logic);
    const works = operation !== undefined && operation !== 'var' && !CONTROL.has(operation);
    current.intoOperation = works;
    let result: unknown;
    try {
      result = applyNode(logic, data);
    } finally {
      current.intoOperation = intoOperation;
    }
    // What an operation reads (its arguments) and makes (its answer) costs by its size.
    if (works || intoOperation) spend(current, sizeInSteps(result, current.left));
    return result;
  };
  library[METERED] = true;
}

/** Runs `evaluate` with a fresh budget; throws ConditionBudgetExceeded when it is used up. */
export function withBudget<T>(evaluate: () => T): T {
  const outer = meter;
  meter = { left: CONDITION_BUDGET_STEPS, intoOperation: false };
  try {
    return evaluate();
  } finally {
    meter = outer;
  }
}

function spend(current: Meter, steps: number): void {
  current.left -= steps;
  if (current.left < 0) throw new ConditionBudgetExceeded();
}

function operationOf(logic: unknown): string | undefined {
  if (typeof logic !== 'object' || logic === null || Array.isArray(logic)) return undefined;
  const keys = Object.keys(logic);
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * The steps an operation's work on `value` costs: 1 per 10 array items (nested arrays counted through, as `cat`
 * and comparisons turn them into text) and 1 per 100 characters; objects are not looked into by any operation. It
 * stops counting past `limit`, so the count itself never costs more than the budget it guards.
 */
function sizeInSteps(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length / 100;
  if (!Array.isArray(value)) return 0;
  let steps = 0;
  const stack: unknown[][] = [value];
  while (stack.length > 0 && steps <= limit) {
    const items = stack.pop()!;
    steps += items.length / 10;
    if (steps > limit) break;
    for (const item of items) {
      if (typeof item === 'string') steps += item.length / 100;
      else if (Array.isArray(item)) stack.push(item);
    }
  }
  return steps;
}
