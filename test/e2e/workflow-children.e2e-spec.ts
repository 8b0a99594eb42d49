import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';

jest.setTimeout(30_000);

/**
 * Workflow steps over real HTTP, on the scripted model server (a stand-in for a paid model provider): a child run
 * whose output the next step reads; a failed child retried and then failing its step; a cancelled parent cancelling
 * its child; nesting past WORKFLOW_MAX_DEPTH; a missing workflow, a refused input, and a workflow naming itself.
 */
describe('workflow steps that run other workflows (e2e)', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body);
      if (task.includes('hang')) return { kind: 'hang' };
      if (task.includes('broken')) return { kind: 'error', status: 400, message: 'The model cannot read this' };
      return { kind: 'text', text: `Did ${task}` };
    });
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, WORKFLOW_MAX_DEPTH: '2' } });
    expect((await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  async function workflow(name: string, steps: unknown[], extra: Record<string, unknown> = {}) {
    const created = await app.request('POST', '/v1/workflows', { name, steps, ...extra });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  async function trigger(workflowId: string, input: Record<string, unknown>) {
    const run = await app.request('POST', `/v1/workflows/${workflowId}/trigger`, { input });
    expect(run.status).toBe(202);
    return `/v1/workflows/${workflowId}/runs/${run.body.id}`;
  }

  const runAt = (path: string, status: string) =>
    eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.status).toBe(status);
      return run;
    }, 15_000);

  it('runs a child workflow and hands its output to the next step; the child names its parent', async () => {
    const shoutId = await workflow('shout', [{ agent: 'worker', action: 'shout {{input.text}}' }], {
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    const parentId = await workflow('greet', [
      { id: 'call', workflow: 'shout', input: { text: 'hello {{input.name}}' } },
      { id: 'after', agent: 'worker', action: 'after {{steps.call.output}}' },
    ]);
    const parent = await runAt(await trigger(parentId, { name: 'Ada' }), 'succeeded');
    expect(parent.steps[0]).toMatchObject({
      status: 'succeeded',
      workflow: 'shout',
      input: { text: 'hello {{input.name}}' },
      sentInput: { text: 'hello Ada' },
      output: 'Did shout hello Ada',
      childRunId: expect.stringMatching(/^wfrun_/),
    });
    expect(parent.output).toBe('Did after Did shout hello Ada');
    const child = (await app.request('GET', `/v1/workflows/${shoutId}/runs/${parent.steps[0].childRunId}`)).body;
    expect(child).toMatchObject({
      status: 'succeeded',
      input: { text: 'hello Ada' },
      parentRunId: parent.id,
      parentStep: 'call',
    });

    // The child's input schema holds for child runs too: an input it refuses fails the step.
    const refusing = await workflow('greet badly', [{ workflow: 'shout', input: { other: 1 } }]);
    const refused = await runAt(await trigger(refusing, {}), 'failed');
    expect(refused.steps[0].error).toMatchObject({ code: 'input_invalid', message: expect.stringContaining('text') });
  });

  it('retries a failed child by the step rules, then fails the step with the child error', async () => {
    await workflow('breaks', [{ agent: 'worker', action: 'broken {{input.n}}' }]);
    const parentId = await workflow('calls breaks', [
      { id: 'call', workflow: 'breaks', input: { n: 1 }, retry: { attempts: 2, backoffMs: 0 } },
    ]);
    const parent = await runAt(await trigger(parentId, {}), 'failed');
    expect(parent.steps[0].attempts).toHaveLength(2);
    expect(parent.steps[0].attempts.map((attempt: { runId: string }) => attempt.runId)).toEqual([
      expect.stringMatching(/^wfrun_/),
      parent.steps[0].childRunId,
    ]);
    expect(parent.error.message).toMatch(/^Step 0 \(workflow "breaks"\) failed: /);
  });

  it('cancels the child run when its parent is cancelled', async () => {
    const hangId = await workflow('hangs', [{ agent: 'worker', action: 'hang' }]);
    const parentId = await workflow('calls hangs', [{ id: 'call', workflow: 'hangs' }]);
    const path = await trigger(parentId, {});
    const running = await eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.steps[0].childRunId).toEqual(expect.any(String));
      const child = await app.request('GET', `/v1/workflows/${hangId}/runs/${run.steps[0].childRunId}`);
      expect(child.body.status).toBe('running');
      return run;
    });
    expect((await app.request('POST', `${path}/cancel`)).status).toBe(200);
    await runAt(path, 'cancelled');
    await runAt(`/v1/workflows/${hangId}/runs/${running.steps[0].childRunId}`, 'cancelled');
  });

  it('fails a step that would nest runs deeper than WORKFLOW_MAX_DEPTH, and one naming no workflow', async () => {
    await workflow('depth 3', [{ agent: 'worker', action: 'deep' }]);
    await workflow('depth 2', [{ workflow: 'depth 3' }]);
    await workflow('depth 1', [{ workflow: 'depth 2' }]);
    const top = await runAt(await trigger(await workflow('depth 0', [{ workflow: 'depth 1' }]), {}), 'failed');
    expect(top.error.message).toContain('would nest runs 3 deep, more than 2 (WORKFLOW_MAX_DEPTH)');

    const missing = await runAt(await trigger(await workflow('calls nobody', [{ workflow: 'nobody' }]), {}), 'failed');
    expect(missing.steps[0].error).toEqual({ code: 'workflow_not_found', message: 'No workflow is named "nobody"' });
  });

  it('refuses a workflow that runs itself, and fields of other kinds of step', async () => {
    const itself = await app.request('POST', '/v1/workflows', { name: 'loop', steps: [{ workflow: 'loop' }] });
    expectProblem(itself, 400);
    expect(itself.body.errors).toContainEqual({
      path: 'steps[0].workflow',
      message: 'a workflow cannot run itself ("loop")',
    });
    const mixed = await app.request('POST', '/v1/workflows', {
      name: 'mixed',
      steps: [
        { workflow: 'shout', agent: 'worker' },
        { agent: 'worker', action: 'a', input: { a: 1 } },
      ],
    });
    expectProblem(mixed, 400);
    expect(mixed.body.errors.map((error: { path: string }) => error.path)).toEqual(
      expect.arrayContaining(['steps[0].agent', 'steps[1].input']),
    );
  });
});
