import { findProblem, parseJsonBody } from './json-body';
import { ValidationFailed } from '../shared/validation-failed';

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

describe('parseJsonBody', () => {
  const refused = (text: string, maxDepth = 3) => {
    try {
      parseJsonBody(text, maxDepth);
    } catch (error) {
      return error instanceof ValidationFailed ? (error.errors[0]?.path ?? '') : 'other error';
    }
    return undefined;
  };

  it('refuses what the walk refuses, however the text spells it', () => {
    expect(refused('{"a":{"__proto__":1}}')).toBe('a.__proto__');
    expect(refused('{"a":{"\\u005f_proto__":1}}')).toBe('a.__proto__');
    expect(refused('{"a":"\\ud800"}')).toBe('a');
    expect(refused('{"a":"\ud800"}')).toBe('a');
    expect(refused('[[[[1]]]]')).toBe('(body)');
    expect(refused('{"a":"x\\"","b":[[[1]]]}')).toBe('b');
  });

  it('lets through what only looks deep or refused inside strings', () => {
    expect(refused('{"a":"[[[[[{{{{"}')).toBeUndefined();
    expect(refused('{"a":"\\"[[[[[","b":[[1]]}')).toBeUndefined();
    expect(refused('{"__proto":"_proto__"}')).toBeUndefined();
    expect(parseJsonBody('{"items":[0,1,{"k":"v"}]}', 3)).toEqual({ items: [0, 1, { k: 'v' }] });
  });
});
