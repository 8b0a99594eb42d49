import jsonLogic from 'json-logic-js';
import { ConditionBudgetExceeded, withBudget } from './condition-budget';

/**
 * A step's `when`: a JSON Logic rule (jsonlogic.com) over `{input, steps: {<id or position>: {output, outputObject}}}`,
 * evaluated with json-logic-js. `log` is removed: a condition has no side effects.
 */
export type StepCondition = Record<string, unknown> | boolean;

jsonLogic.rm_operation('log');

export interface ConditionScope {
  input: Record<string, unknown>;
  steps: Record<string, { output: string | null; outputObject?: unknown }>;
}

/**
 * Whether the condition holds; a rule that throws while it runs counts as false, but one that uses up its budget
 * (condition-budget.ts) is `over_budget`: the step fails with `condition_budget_exceeded` rather than being skipped.
 */
export function conditionVerdict(when: StepCondition, scope: ConditionScope | object): boolean | 'over_budget' {
  if (typeof when === 'boolean') return when;
  try {
    return withBudget(() => jsonLogic.truthy(jsonLogic.apply(when as jsonLogic.RulesLogic, scope)));
  } catch (error) {
    if (error instanceof ConditionBudgetExceeded) return 'over_budget';
    return false;
  }
}

/**
 * The most values a rule may hold (operations, their arguments, and the items of literal arrays, counted through):
 * json-logic-js evaluates a literal array item by item each time it is reached, so a long list belongs in the
 * run's input, where it is read once.
 */
export const MAX_CONDITION_VALUES = 1_000;

/** What is wrong with a rule: an unknown operation, or a shape JSON Logic does not read; undefined when none. */
export function conditionProblem(when: unknown): string | undefined {
  if (typeof when === 'boolean') return undefined;
  if (typeof when !== 'object' || when === null || Array.isArray(when)) {
    return 'when must be a JSON Logic rule (an object such as {"==": [{"var": "input.kind"}, "news"]}) or a boolean';
  }
  if (valuesIn(when, MAX_CONDITION_VALUES) > MAX_CONDITION_VALUES) {
    return (
      `a rule may hold at most ${MAX_CONDITION_VALUES.toLocaleString('en-US')} values (operations, arguments and ` +
      'items of literal arrays); pass a long list in the input and read it with {"var": "input.<name>"}'
    );
  }
  return ruleProblem(when);
}

/** How many values a rule holds, counted without recursion and no further than just past `limit`. */
function valuesIn(rule: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [rule];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count++;
    if (Array.isArray(value)) stack.push(...value.slice(0, limit + 1));
    else if (typeof value === 'object' && value !== null) stack.push(...Object.values(value).slice(0, limit + 1));
  }
  return count;
}

function ruleProblem(rule: unknown): string | undefined {
  if (Array.isArray(rule)) {
    for (const item of rule) {
      const problem = ruleProblem(item);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof rule !== 'object' || rule === null) return undefined;
  const keys = Object.keys(rule);
  if (keys.length !== 1) return `a JSON Logic operation has exactly one key, not ${keys.length} (${keys.join(', ')})`;
  const op = keys[0];
  if (!isOperation(op)) return `"${op}" is not a JSON Logic operation`;
  return ruleProblem((rule as Record<string, unknown>)[op]);
}

const SPECIAL = new Set(['if', '?:', 'and', 'or', 'filter', 'map', 'reduce', 'all', 'none', 'some']);

/** json-logic-js itself tells whether it knows an operation. */
function isOperation(op: string): boolean {
  if (SPECIAL.has(op)) return true;
  try {
    jsonLogic.apply({ [op]: [] } as jsonLogic.RulesLogic, {});
    return true;
  } catch (error) {
    return !String(error).includes('Unrecognized operation');
  }
}

/** The step ids a rule reads (`{"var": "steps.<id>…"}`), so a reference to a step not needed can be refused. */
export function conditionStepRefs(rule: unknown): string[] {
  if (Array.isArray(rule)) return rule.flatMap(conditionStepRefs);
  if (typeof rule !== 'object' || rule === null) return [];
  return Object.entries(rule).flatMap(([op, args]) => {
    const name = op === 'var' ? (Array.isArray(args) ? args[0] : args) : undefined;
    const ref = typeof name === 'string' ? /^steps\.([^.]+)/.exec(name)?.[1] : undefined;
    return [...(ref ? [ref] : []), ...conditionStepRefs(args)];
  });
}
