import { validationPaths } from '../../../test/support/validation-paths';
import { DEFAULT_MEMORY } from '../agent';
import { CreateAgentDto } from './create-agent.dto';

/** The app's pipe, with the DTO's fast path (`metadata`) and without it (`slow`). */
const { pipe, fast: metadata, slow, outcome } = validationPaths(CreateAgentDto);

const valid = { name: 'researcher', model: 'openai/gpt-4o-mini' };
const long = (n: number, unit = 'a') => unit.repeat(n);

describe('POST /v1/agents body: the fast path (a JSON Schema) beside class-validator', () => {
  it('makes the DTO of a valid body at once, with the defaults, without class-validator', () => {
    const result = pipe.transform({ ...valid, tools: ['current_time'] }, metadata);
    expect(result).toBeInstanceOf(CreateAgentDto);
    expect(result).toEqual({
      name: 'researcher',
      model: 'openai/gpt-4o-mini',
      instructions: '',
      tools: ['current_time'],
      maxSteps: 10,
      approvalRequired: [],
      fallbackModels: [],
      guardrails: {},
      handoffs: [],
      scorers: [],
      description: '',
      memory: { maxMessages: DEFAULT_MEMORY.maxMessages },
      outputSchema: null,
    });
  });

  it('leaves a refused body to class-validator, whose 400 names the field as before', async () => {
    await expect(pipe.transform({ ...valid, maxSteps: 0 }, metadata)).rejects.toMatchObject({
      errors: [{ path: 'maxSteps', message: 'maxSteps must not be less than 1' }],
    });
    await expect(pipe.transform({ ...valid, memory: { maxMessages: 1, extra: 1 } }, metadata)).rejects.toMatchObject({
      errors: [{ path: 'memory.extra', message: 'is not a known field' }],
    });
  });

  // Whatever the fast path accepts, class-validator accepts too, with the same DTO; what it refuses, both refuse.
  const bodies: Array<[string, unknown]> = [
    ['the least', valid],
    [
      'every field',
      {
        ...valid,
        instructions: 'Be brief.',
        tools: ['http_get', 'mcp:files/*'],
        maxSteps: 100,
        approvalRequired: ['http_get'],
        memory: { maxMessages: 0 },
        outputSchema: { type: 'object', properties: { constructor: { type: 'string' } } },
        scorers: [{ scorer: 'polite', sampling: 0.5 }],
      },
    ],
    ['an unknown field', { ...valid, colour: 'red' }],
    ['name missing', { model: valid.model }],
    ['name blank', { ...valid, name: ' \t ' }],
    ['name null', { ...valid, name: null }],
    ['name a number', { ...valid, name: 5 }],
    ['name of 200', { ...valid, name: long(200) }],
    ['name of 201', { ...valid, name: long(201) }],
    ['name of 200 astral characters', { ...valid, name: long(200, '😀') }],
    ['name decomposed (NFC composes it)', { ...valid, name: 'cafe\u0301' }],
    ['name decomposed at the limit', { ...valid, name: `${long(199)}e\u0301` }],
    ['name expanded by NFC past the limit', { ...valid, name: long(101, '\u0958') }],
    ['model without provider', { ...valid, model: 'gpt-4o' }],
    ['model in capitals', { ...valid, model: 'OpenAI/GPT-4o' }],
    ['model with a space', { ...valid, model: 'openai/gpt 4o' }],
    ['model too long', { ...valid, model: `openai/${long(200)}` }],
    ['instructions null', { ...valid, instructions: null }],
    ['instructions too long', { ...valid, instructions: long(100_001) }],
    ['tools not an array', { ...valid, tools: 'current_time' }],
    ['tools repeated', { ...valid, tools: ['a', 'a'] }],
    ['tools with a bad id', { ...valid, tools: ['-x'] }],
    ['tools with a number', { ...valid, tools: [1] }],
    ['too many tools', { ...valid, tools: Array.from({ length: 101 }, (_, i) => `t${i}`) }],
    ['maxSteps a string', { ...valid, maxSteps: '5' }],
    ['maxSteps a fraction', { ...valid, maxSteps: 2.5 }],
    ['maxSteps 101', { ...valid, maxSteps: 101 }],
    ['maxSteps null', { ...valid, maxSteps: null }],
    ['memory null', { ...valid, memory: null }],
    ['memory an array', { ...valid, memory: [] }],
    ['memory empty', { ...valid, memory: {} }],
    ['memory too large', { ...valid, memory: { maxMessages: 1001 } }],
    ['outputSchema null', { ...valid, outputSchema: null }],
    ['outputSchema an array', { ...valid, outputSchema: [] }],
    ['scorers not an array', { ...valid, scorers: 'polite' }],
    ['scorers without sampling', { ...valid, scorers: [{ scorer: 'polite' }] }],
    ['scorers sampling past 1', { ...valid, scorers: [{ scorer: 'polite', sampling: 1.5 }] }],
    ['scorers with an unknown field', { ...valid, scorers: [{ scorer: 'polite', sampling: 1, weight: 2 }] }],
    ['approvalRequired repeated', { ...valid, approvalRequired: ['x', 'x'] }],
    ['a body that is an array', [valid]],
    ['a body that is null', null],
  ];

  it.each(bodies)('agrees with class-validator on %s', async (_, body) => {
    const slowOutcome = await outcome(slow, body);
    const fastOutcome = await outcome(metadata, body);
    expect(fastOutcome).toEqual(slowOutcome);
  });

  it('takes the fast path for the valid ones above, so the comparison compares it', () => {
    for (const body of [valid, bodies[1][1], { ...valid, name: long(100, '😀') }, { ...valid, name: 'cafe\u0301' }])
      expect(pipe.transform(body, metadata)).not.toBeInstanceOf(Promise);
  });
});
