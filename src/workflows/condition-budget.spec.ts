import { CONDITION_BUDGET_STEPS } from './condition-budget';
import { MAX_CONDITION_VALUES, conditionProblem, conditionVerdict } from './step-condition';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const scope = (input: Record<string, unknown>) => ({ input, steps: {} });

describe('a condition within its budget', () => {
  it('answers rules over ordinary inputs as json-logic-js does', () => {
    const input = { kind: 'news', tags: range(5_000).map(String), text: 'y'.repeat(500_000) + ' urgent' };
    expect(conditionVerdict({ '==': [{ var: 'input.kind' }, 'news'] }, scope(input))).toBe(true);
    expect(conditionVerdict({ in: ['4999', { var: 'input.tags' }] }, scope(input))).toBe(true);
    expect(conditionVerdict({ in: ['urgent', { var: 'input.text' }] }, scope(input))).toBe(true);
    expect(conditionVerdict({ some: [{ var: 'input.tags' }, { '==': [{ var: '' }, 'x'] }] }, scope(input))).toBe(false);
    // A rule that throws while it runs still counts as false.
    expect(conditionVerdict({ in: ['a', { var: 'input.missing' }] }, scope(input))).toBe(false);
  });

  it('stops `some` over a long input with an `in` over a long literal list', () => {
    const rule = { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(990)] }] };
    expect(conditionVerdict(rule, scope({ items: range(20_000).map((i) => -i - 1) }))).toBe('over_budget');
  });

  it('stops nested maps over literal lists', () => {
    const rule = { map: [range(150), { map: [range(150), { map: [range(150), { var: '' }] }] }] };
    expect(conditionVerdict(rule, scope({}))).toBe('over_budget');
  });

  it('counts the work of operations on what they read: `in` over a long list from the input, in a loop', () => {
    // reduce's accumulator starts as the long list, and each item's `in` searches it.
    const rule = {
      reduce: [
        { var: 'input.items' },
        { if: [{ in: [{ var: 'current' }, { var: 'accumulator' }] }, { var: 'accumulator' }, { var: 'accumulator' }] },
        { var: 'input.list' },
      ],
    };
    const input = { items: range(20_000).map((i) => -i - 1), list: range(20_000) };
    expect(conditionVerdict(rule, scope(input))).toBe('over_budget');
  });

  it('stops a reduce that doubles an array or a string before it fills the memory', () => {
    const items = range(100);
    const merge = {
      reduce: [{ var: 'input.items' }, { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]],
    };
    const cat = { reduce: [{ var: 'input.items' }, { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'] };
    expect(conditionVerdict(merge, scope({ items }))).toBe('over_budget');
    expect(conditionVerdict(cat, scope({ items }))).toBe('over_budget');
  });

  it('gives each evaluation a budget of its own', () => {
    const rule = { some: [{ var: 'input.items' }, { '==': [{ var: '' }, -1] }] };
    // About four steps an item: `==`, its two arguments, and the path `var` reads.
    const items = range(CONDITION_BUDGET_STEPS / 10);
    for (let i = 0; i < 10; i++) expect(conditionVerdict(rule, scope({ items }))).toBe(false);
  });
});

describe('a condition at create', () => {
  it(`refuses a rule of more than ${MAX_CONDITION_VALUES} values, literal list items counted`, () => {
    expect(conditionProblem({ in: [{ var: 'input.x' }, range(MAX_CONDITION_VALUES - 10)] })).toBeUndefined();
    expect(conditionProblem({ in: [{ var: 'input.x' }, range(20_000)] })).toMatch(/at most 1,000 values/);
    expect(conditionProblem({ and: range(600).map(() => ({ '!': [true] })) })).toMatch(/at most 1,000 values/);
  });
});
