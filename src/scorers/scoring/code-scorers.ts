import jsonLogic from 'json-logic-js';
import type { Usage } from '../../domain/run';
import { schemaErrors } from '../../shared/json-schema';
import { ConditionBudgetExceeded, withBudget } from '../../workflows/condition-budget';
import type { Scorer } from '../scorer';

/** What a scorer judges: an answer, what it was asked, the answer expected, and what its run did. */
export interface ScoredAnswer {
  input: unknown;
  output: string | null;
  /** The structured answer, when its run had an `outputSchema`. */
  outputObject?: unknown;
  /** The answer expected; null: none. */
  expected: unknown;
  run?: {
    toolCalls: Array<{ tool: string; input: unknown; output?: unknown; error?: string }>;
    usage: Usage | null;
    durationMs: number | null;
  };
}

/** A score without its scorer's name. */
export interface Verdict {
  score: number;
  reason?: string;
}

type CodeScorer = Exclude<Scorer, { type: 'judge' }>;

// A rule has no side effects (as a workflow step's condition).
jsonLogic.rm_operation('log');

/** The score a scorer that needs no model gives: at once, in this process. */
export async function codeScore(scorer: CodeScorer, answer: ScoredAnswer): Promise<Verdict> {
  switch (scorer.type) {
    case 'exact':
    case 'contains':
      return compare(scorer.type, scorer.caseSensitive, answer);
    case 'json_schema':
      return matchesSchema(scorer.schema, answer);
    case 'rule':
      return byRule(scorer.rule, answer);
  }
}

/** A value as text: a string as it is, anything else as its JSON. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function compare(how: 'exact' | 'contains', caseSensitive: boolean, answer: ScoredAnswer): Verdict {
  if (answer.expected === null || answer.expected === undefined) {
    return { score: 0, reason: 'no answer is expected to compare with' };
  }
  // A structured answer is compared with a structured expectation as JSON, key order aside.
  const structured = answer.outputObject !== undefined && answer.outputObject !== null;
  const got =
    structured && typeof answer.expected !== 'string' ? canonical(answer.outputObject) : (answer.output ?? '');
  const want = structured && typeof answer.expected !== 'string' ? canonical(answer.expected) : textOf(answer.expected);
  const fold = (text: string) => (caseSensitive ? text.trim() : text.trim().toLowerCase());
  const met = how === 'exact' ? fold(got) === fold(want) : fold(got).includes(fold(want));
  if (met) return { score: 1 };
  return {
    score: 0,
    reason:
      how === 'exact' ? 'the output is not the answer expected' : 'the output does not contain the answer expected',
  };
}

/** JSON with every object's keys sorted, so that two equal values are one text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

async function matchesSchema(schema: Record<string, unknown>, answer: ScoredAnswer): Promise<Verdict> {
  let value = answer.outputObject;
  if (value === undefined || value === null) {
    try {
      value = JSON.parse(answer.output ?? '');
    } catch {
      return { score: 0, reason: 'the output is not JSON' };
    }
  }
  const errors = await schemaErrors(schema, value);
  if (!errors.length) return { score: 1 };
  const [first] = errors;
  return { score: 0, reason: `the output does not match the schema: ${first.path || 'the value'} ${first.message}` };
}

/** True is 1 and false 0; a number from 0 to 1 is the score itself. */
function byRule(rule: Record<string, unknown> | boolean, answer: ScoredAnswer): Verdict {
  if (typeof rule === 'boolean') return { score: rule ? 1 : 0 };
  const { input, output, outputObject, expected, run } = answer;
  const data = { input, output, outputObject: outputObject ?? null, expected, run: run ?? null };
  let result: unknown;
  try {
    result = withBudget(() => jsonLogic.apply(rule as jsonLogic.RulesLogic, data));
  } catch (error) {
    if (error instanceof ConditionBudgetExceeded) return { score: 0, reason: 'the rule used up its budget' };
    return { score: 0, reason: `the rule failed: ${String(error)}` };
  }
  if (typeof result === 'number' && result >= 0 && result <= 1) return { score: result };
  return jsonLogic.truthy(result) ? { score: 1 } : { score: 0, reason: 'the rule is false for this answer' };
}
