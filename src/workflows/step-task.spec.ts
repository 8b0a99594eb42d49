import { inputPathsIn, missingPaths, renderStepTask } from './step-task';

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

describe('the paths a step task could not fill', () => {
  const scope = { input: { topic: 'cron', user: { name: null } }, outputs: ['first', null], objects: [{ title: 'T' }] };

  it('are the placeholders whose path leads nowhere, as written and each once', () => {
    const action = '{{input.topc}} {{ input.topc }} {{input.topic}} {{input.user.name}} {{input.user.age}}';
    expect(missingPaths(action, scope)).toEqual(['input.topc', 'input.user.age']);
  });

  it('count a missing field of a structured answer, but not a step without an output, nor braces left as written', () => {
    const action =
      '{{steps.0.output.title}} {{steps.0.output.tilte}} {{steps.1.output}} {{steps.x.output}} {{env.HOME}}';
    expect(missingPaths(action, scope)).toEqual(['steps.0.output.tilte']);
  });
});

describe('the input paths a template reads', () => {
  it('are the paths after input., not the input whole nor step outputs', () => {
    expect(inputPathsIn('{{input.topic}} {{ input.user.name }} {{input}} {{steps.0.output.x}}')).toEqual([
      ['topic'],
      ['user', 'name'],
    ]);
  });
});
