import { ValidationFailed } from '../../shared/validation-failed';
import { WorkflowStep } from '../workflow/workflow.state';
import { checkInputSchema, undeclaredInputs } from './input-schema-check';

describe('a workflow input schema', () => {
  const schema = {
    type: 'object',
    properties: { topic: { type: 'string' }, user: { type: 'object', properties: { name: {} } }, any: {} },
  };
  const step = (action: string): WorkflowStep => ({ agent: 'a', action });

  it('accepts templates that name declared fields, the input whole, and anything below a level it leaves open', () => {
    const steps = [step('{{input.topic}} {{input.user.name}} {{input}} {{input.any.thing}}'), { approval: 'ok?' }];
    expect(undeclaredInputs(schema, steps)).toEqual([]);
    expect(undeclaredInputs({ type: 'object' }, [step('{{input.whatever}}')])).toEqual([]);
  });

  it('names the step of each template that reads a field it does not declare, once per field', () => {
    expect(
      undeclaredInputs(schema, [step('{{input.name}}'), step('{{input.user.nmae}} {{input.user.nmae.x}}')]),
    ).toEqual([
      {
        path: 'steps[0].action',
        message: '{{input.name}}: inputSchema declares no input.name (its properties there: topic, user, any)',
      },
      {
        path: 'steps[1].action',
        message: '{{input.user.nmae}}: inputSchema declares no input.user.nmae (its properties there: name)',
      },
    ]);
  });

  it('checks the schema itself as an outputSchema is checked, unless told it has not changed', async () => {
    const refusal = (promise: Promise<void>) =>
      promise.then(
        () => undefined,
        (error: ValidationFailed) => error.errors,
      );
    expect(await refusal(checkInputSchema({ type: 'array' }, []))).toEqual([
      { path: 'inputSchema', message: 'inputSchema must have "type": "object" at its root' },
    ]);
    expect(await refusal(checkInputSchema({ type: 'array' }, [], false))).toBeUndefined();
    expect(await refusal(checkInputSchema(undefined, [step('{{input.x}}')]))).toBeUndefined();
  });
});
