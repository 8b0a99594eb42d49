import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../../http/validation';
import { ValidationFailed } from '../../shared/validation-failed';
import { TriggerWorkflowDto } from './trigger-workflow.dto';

const pipe = createValidationPipe();
const fast: ArgumentMetadata = { type: 'body', metatype: TriggerWorkflowDto };
/** The same DTO without its fast path (a subclass does not inherit it): class-validator alone. */
class WithoutFastPath extends TriggerWorkflowDto {}
const slow: ArgumentMetadata = { type: 'body', metatype: WithoutFastPath };

async function outcome(metadata: ArgumentMetadata, body: unknown): Promise<unknown> {
  try {
    return JSON.parse(JSON.stringify(await pipe.transform(body, metadata)));
  } catch (error) {
    if (error instanceof ValidationFailed) return { refused: error.errors };
    throw error;
  }
}

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
