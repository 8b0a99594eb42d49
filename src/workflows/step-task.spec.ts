import { renderStepTask } from './step-task';

describe('a step task', () => {
  const scope = { input: { topic: 'cron', user: { name: 'Ada' }, tags: ['a', 'b'], n: 3 }, outputs: ['first', null] };

  it('fills in input paths and earlier step outputs', () => {
    expect(renderStepTask('About {{input.topic}} for {{ input.user.name }}: {{steps.0.output}}', scope)).toBe(
      'About cron for Ada: first',
    );
  });

  it('writes values that are not strings as JSON', () => {
    expect(renderStepTask('{{input.tags}} {{input.n}} {{input}}', scope)).toBe(
      `["a","b"] 3 ${JSON.stringify(scope.input)}`,
    );
  });

  it('leaves nothing where a path leads nowhere or a step has no output yet', () => {
    expect(renderStepTask('[{{input.missing.x}}][{{steps.1.output}}][{{steps.7.output}}]', scope)).toBe('[][][]');
  });

  it('substitutes plainly, never evaluating, and leaves other braces as written', () => {
    const input = { code: '{{steps.0.output}}', proto: 'x' };
    expect(
      renderStepTask('{{input.code}} {{input.constructor}} {{ 1 + 1 }} {{env.HOME}}', { input, outputs: ['leak'] }),
    ).toBe('{{steps.0.output}}  {{ 1 + 1 }} {{env.HOME}}');
  });

  it('is undefined past the length limit, and stops filling in at the first placeholder past it', () => {
    const input = { big: { text: 'y'.repeat(1_000) } };
    let reads = 0;
    const counted = new Proxy(input, { get: (target, key: string) => (reads++, target[key as 'big']) });
    expect(renderStepTask('{{input.big}} '.repeat(1_000), { input: counted, outputs: [] }, 10_000)).toBeUndefined();
    expect(reads).toBeLessThan(20);
    expect(renderStepTask('{{input.big.text}}', { input, outputs: [] }, 1_000)).toBe('y'.repeat(1_000));
    expect(renderStepTask('{{input.big.text}}!', { input, outputs: [] }, 1_000)).toBeUndefined();
  });
});
