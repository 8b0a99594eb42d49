import { findProblem, parseJsonBody } from './json-body';
import { TooManyJsonValues } from './problem';
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
      parseJsonBody(text, { jsonMaxDepth: maxDepth, jsonMaxValues: 1000 });
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
    expect(parseJsonBody('{"items":[0,1,{"k":"v"}]}', { jsonMaxDepth: 3, jsonMaxValues: 5 })).toEqual({
      items: [0, 1, { k: 'v' }],
    });
  });

  describe('the count of values', () => {
    const limits = (jsonMaxValues: number) => ({ jsonMaxDepth: 64, jsonMaxValues });
    const over = (text: string, max: number) => {
      try {
        parseJsonBody(text, limits(max));
        return false;
      } catch (error) {
        if (error instanceof TooManyJsonValues) return true;
        throw error;
      }
    };

    it('counts each array item and object member, and nothing in strings or empty containers', () => {
      // items, 0, 1, the object, k, empty and none: seven values
      const text = '{ "items" : [ 0 , 1 , { "k" : "v,]}" } ] , "empty": [ ], "none": { } }';
      expect(over(text, 7)).toBe(false);
      expect(over(text, 6)).toBe(true);
      expect(over('[]', 0)).toBe(false);
      expect(over('"a,b,c"', 0)).toBe(false);
      expect(over('[1]', 0)).toBe(true);
    });

    it('refuses a body past the limit before parsing it, so malformed text past it is a 413 too', () => {
      expect(over('[1,2,3,', 2)).toBe(true);
      expect(() => parseJsonBody('[1,2,3,', limits(10))).toThrow(/not valid JSON/);
    });

    it('counts half a million items of a 1 MB array', () => {
      expect(over(JSON.stringify({ items: new Array(500_000).fill(0) }), 500_000)).toBe(true);
      expect(over(JSON.stringify({ items: new Array(499_999).fill(0) }), 500_000)).toBe(false);
    });
  });
});
