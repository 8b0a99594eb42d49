import { stepGraphProblems } from './step-graph-check';

describe('stepGraphProblems', () => {
  const step = (extra: object = {}) => ({ agent: 'a', action: 'x', ...extra });

  it('accepts a chain, branches by id and position, and a join', () => {
    expect(stepGraphProblems([step(), step()])).toEqual([]);
    expect(
      stepGraphProblems([
        step({ id: 'a' }),
        step({ id: 'b', needs: [] }),
        step({
          action: '{{steps.a.output}} {{steps.1.output}}',
          needs: ['a', '1'],
          when: { '==': [{ var: 'steps.b.output' }, 'x'] },
        }),
      ]),
    ).toEqual([]);
  });

  it('names each field that does not hold', () => {
    expect(stepGraphProblems([step({ id: 'a' }), step({ id: 'a' }), step({ needs: ['zz'] })])).toEqual([
      { path: 'steps[1].id', message: 'id "a" is already the id of steps[0]' },
      { path: 'steps[2].needs[0]', message: 'no step has the id "zz"' },
    ]);
    expect(stepGraphProblems([step({ needs: ['1'] }), step()])).toEqual([
      { path: 'steps[0].needs', message: 'the needs make a cycle: "0" → "1" → "0"' },
    ]);
    expect(
      stepGraphProblems([step({ id: 'a' }), step({ needs: [], when: { '==': [{ var: 'steps.a.output' }, 1] } })]).map(
        (e) => e.path,
      ),
    ).toEqual(['steps[1].when']);
    expect(stepGraphProblems([step({ when: { nope: [] } })])[0]).toEqual({
      path: 'steps[0].when',
      message: '"nope" is not a JSON Logic operation',
    });
  });
});
