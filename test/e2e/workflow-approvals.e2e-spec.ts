import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { StepTimers } from '../../src/execution/workflow-runs/step-timers';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/** Workflow steps that wait for a person, against a scripted model server (a test double). */
describe('workflow approval steps', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer((body) => ({
      kind: 'text',
      text: lastUserMessage(body).split('\n\nContext')[0].toUpperCase(),
    }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    for (const name of ['researcher', 'writer']) {
      expect((await app.request('POST', '/v1/agents', { name, model: 'openai-compatible/m' })).status).toBe(201);
    }
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function waitingRun(approvalStep: Record<string, unknown> = { approval: 'Publish this?' }) {
    const workflow = await app.request('POST', '/v1/workflows', {
      name: `wf ${Math.random()}`,
      steps: [
        { agent: 'researcher', action: 'research {{input.topic}}' },
        approvalStep,
        { agent: 'writer', action: 'write {{steps.1.output.title}} from {{steps.0.output}}' },
      ],
    });
    expect(workflow.status).toBe(201);
    expect(workflow.body.steps[1]).toEqual(approvalStep);
    const triggered = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, {
      input: { topic: 'cron' },
    });
    const path = `/v1/workflows/${workflow.body.id}/runs/${triggered.body.id}`;
    let run: any;
    await eventually(async () => {
      run = (await app.request('GET', path)).body;
      expect(run.status).toBe('waiting');
    });
    expect(run.steps.map((s: any) => s.status)).toEqual(['succeeded', 'waiting', 'pending']);
    expect(run.steps[1]).toMatchObject({
      agent: null,
      action: null,
      approval: approvalStep.approval,
      agentRunId: null,
    });
    return { path, run };
  }

  it('waits at the step, and goes on once approved, the approval data as the step output', async () => {
    const { path } = await waitingRun();
    expect(model.requests).toHaveLength(1);
    const decided = await app.request('POST', `${path}/approvals`, {
      decision: 'approve',
      data: { title: 'Cron jobs' },
    });
    expect(decided.status).toBe(202);
    let run: any;
    await eventually(async () => {
      run = (await app.request('GET', path)).body;
      expect(run.status).toBe('succeeded');
    });
    expect(run.steps[1]).toMatchObject({ status: 'succeeded', outputObject: { title: 'Cron jobs' } });
    expect(run.output).toBe('WRITE CRON JOBS FROM RESEARCH CRON');
    const events = (await app.request('GET', `${path}/events`)).body.events.map((e: any) => e.type);
    expect(events).toContain('WorkflowApprovalRequested');
  });

  it('fails the run with rejected when the step is rejected, skipping the later steps', async () => {
    const { path } = await waitingRun();
    const decided = await app.request('POST', `${path}/approvals`, { decision: 'reject', reason: 'not yet' });
    expect(decided.status).toBe(202);
    expect(decided.body).toMatchObject({ status: 'failed', error: { code: 'rejected' } });
    expect(decided.body.error.message).toContain('not yet');
    expect(decided.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(model.requests).toHaveLength(1);
    expectProblem(await app.request('POST', `${path}/approvals`, { decision: 'approve' }), 409, 'not-waiting');
  });

  it('refuses a bad decision with problem+json and changes nothing', async () => {
    const { path } = await waitingRun();
    expectProblem(await app.request('POST', `${path}/approvals`, {}), 400);
    expectProblem(await app.request('POST', `${path}/approvals`, { decision: 'approve', data: 'x' }), 400);
    expectProblem(await app.request('POST', '/v1/workflows', { name: 'bad', steps: [{ approval: '' }] }), 400);
    expectProblem(
      await app.request('POST', '/v1/workflows', { name: 'bad', steps: [{ approval: 'ok', timeoutMs: 5 }] }),
      400,
    );
    expect((await app.request('GET', path)).body.status).toBe('waiting');
  });

  it('fails a run that waits past the step timeoutMs with approval_timeout', async () => {
    const { path } = await waitingRun({ approval: 'Quick?', timeoutMs: 5000 });
    // The time-out is a step timer in the read model, fired by StepTimers (on every instance, once).
    const timers = app.app.get(StepTimers);
    await eventually(async () => expect(await timers.fireDue()).toBe(0));
    expect((await app.request('GET', path)).body.status).toBe('waiting');
    app.clock.advance(5001);
    expect(await timers.fireDue()).toBe(1);
    expect((await app.request('GET', path)).body).toMatchObject({
      status: 'failed',
      error: { code: 'approval_timeout' },
    });
  });

  it("shows a run waiting while its step's agent run waits for an approval", async () => {
    model.respondWith((body) =>
      body.messages.some((m) => m.role === 'tool')
        ? { kind: 'text', text: 'done' }
        : { kind: 'toolCalls', calls: [{ id: 'call_t', name: 'current_time', arguments: {} }] },
    );
    const agent = await app.request('POST', '/v1/agents', {
      name: 'careful',
      model: 'openai-compatible/m',
      tools: ['current_time'],
      approvalRequired: ['current_time'],
    });
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'careful flow',
      steps: [{ agent: 'careful', action: 'tell the time' }],
    });
    const triggered = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: {} });
    const path = `/v1/workflows/${workflow.body.id}/runs/${triggered.body.id}`;
    let run: any;
    await eventually(async () => {
      run = (await app.request('GET', path)).body;
      expect(run.status).toBe('waiting');
    });
    expect(run.steps[0].status).toBe('waiting');
    const listed = (await app.request('GET', `/v1/workflows/${workflow.body.id}/runs`)).body.runs;
    expect(listed[0].status).toBe('waiting');
    await app.request('POST', `/v1/agents/${agent.body.id}/runs/${run.steps[0].agentRunId}/approvals`, {
      decisions: [{ toolCallId: 'call_t', decision: 'approve' }],
    });
    await eventually(async () => expect((await app.request('GET', path)).body.status).toBe('succeeded'));
  });
});
