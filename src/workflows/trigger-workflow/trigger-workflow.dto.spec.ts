import { validationPaths } from '../../../test/support/validation-paths';
import { TriggerWorkflowDto } from './trigger-workflow.dto';

const { pipe, fast, slow, outcome } = validationPaths(TriggerWorkflowDto);

describe('POST /v1/workflows/{id}/trigger body: the fast path beside class-validator', () => {
  it('makes the DTO of a valid body at once, keeping every key of input', () => {
    const input = { topic: 'cron', constructor: 1, nested: { toString: 'x' } };
    const result = pipe.transform({ input }, fast);
    expect(result).toBeInstanceOf(TriggerWorkflowDto);
    expect(result).toEqual({ input });
    expect(pipe.transform({}, fast)).toEqual({ input: {} });
  });

  const bodies: Array<[string, unknown]> = [
    ['no input', {}],
    ['an input', { input: { a: [1, { b: null }] } }],
    ['input null', { input: null }],
    ['input an array', { input: [1] }],
    ['input a string', { input: 'x' }],
    ['an unknown field', { input: {}, extra: true }],
    ['a body that is an array', [{}]],
    ['a body that is null', null],
  ];

  it.each(bodies)('agrees with class-validator on %s', async (_, body) => {
    expect(await outcome(fast, body)).toEqual(await outcome(slow, body));
  });
});
