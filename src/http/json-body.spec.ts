import { findProblem } from './json-body';

describe('findProblem', () => {
  it('names the path of what it refuses', () => {
    expect(findProblem(JSON.parse('{"a":[1,{"b":[{"__proto__":1}]}]}'), 64)?.path).toBe('a[1].b[0].__proto__');
    expect(findProblem({ x: ['ok', '\ud800'] }, 64)?.path).toBe('x[1]');
    expect(findProblem({ deep: [[[1]]] }, 3)?.path).toBe('deep');
    expect(findProblem([[[[1]]]], 3)?.path).toBe('(body)');
  });

  it('passes a large array of plain values', () => {
    expect(findProblem({ items: new Array(500_000).fill(0) }, 64)).toBeUndefined();
  });
});
