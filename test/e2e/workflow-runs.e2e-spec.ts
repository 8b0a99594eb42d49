import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { ActorRegistry } from '../../src/actors/actor-registry';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp } from '../support/test-app';

/** Workflow runs walk their steps through real agent runs, against a scripted model server (a test double). */
describe('workflow runs', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    // Each agent answers with its task in capitals, so each step output shows what the step was asked.
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body).split('\n\nContext')[0];
      if (task.includes('FAIL')) return { kind: 'error', status: 400, message: 'The model refuses' };
      if (task.includes('HANG')) return { kind: 'hang' };
      return { kind: 'text', text: task.toUpperCase() };
    });
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    for (const name of ['researcher', 'writer', 'editor']) {
      const created = await app.request('POST', '/v1/agents', { name, model: 'openai-compatible/m' });
      expect(created.status).toBe(201);
    }
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function createWorkflow(steps: Array<{ agent: string; action: string; context?: string }>): Promise<string> {
    const created = await app.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const trigger = (workflowId: string, input: Record<string, unknown>, wait = 10) =>
    app.request('POST', `/v1/workflows/${workflowId}/trigger`, { input }, { prefer: `wait=${wait}` });

  it('runs three steps in order, passing each output to the next', async () => {
    const workflowId = await createWorkflow([
      { agent: 'researcher', action: 'research {{input.topic}}' },
      { agent: 'writer', action: 'write about {{steps.0.output}}', context: 'all' },
      { agent: 'editor', action: 'edit {{steps.1.output}} for {{input.audience.name}}' },
    ]);
    const actors = app.app.get(ActorRegistry);
    const cachedBefore = actors.size;
    const ran = await trigger(workflowId, { topic: 'cron', audience: { name: 'ops' } });
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({
      workflowId,
      status: 'succeeded',
      output: 'EDIT WRITE ABOUT RESEARCH CRON FOR OPS',
      error: null,
    });
    expect(ran.body.steps.map((s: any) => [s.index, s.agent, s.status, s.output, s.task])).toEqual([
      [0, 'researcher', 'succeeded', 'RESEARCH CRON', 'research cron'],
      [1, 'writer', 'succeeded', 'WRITE ABOUT RESEARCH CRON', 'write about RESEARCH CRON'],
      [2, 'editor', 'succeeded', 'EDIT WRITE ABOUT RESEARCH CRON FOR OPS', 'edit WRITE ABOUT RESEARCH CRON for ops'],
    ]);
    // A step sends only its task, unless it asked for context ('all' for the writer here).
    const sent = model.requests.map((body) => lastUserMessage(body));
    expect(sent[0]).toBe('research cron');
    expect(sent[1]).toMatch(/^write about RESEARCH CRON\n\nContext \(JSON\):\n/);
    expect(sent[2]).toBe('edit WRITE ABOUT RESEARCH CRON for ops');

    // Each step is an agent run of its own, listed with the agent's runs, with the workflow context.
    const step = ran.body.steps[1];
    const agents = (await app.request('GET', '/v1/agents')).body.agents;
    const writer = agents.find((a: { name: string }) => a.name === 'writer');
    const stepRun = await app.request('GET', `/v1/agents/${writer.id}/runs/${step.agentRunId}`);
    expect(stepRun.body).toMatchObject({
      task: 'write about RESEARCH CRON',
      workflowRunId: ran.body.id,
      stepIndex: 1,
      status: 'succeeded',
      context: {
        workflow: { id: workflowId, runId: ran.body.id },
        input: { topic: 'cron', audience: { name: 'ops' } },
        steps: [{ index: 0, agent: 'researcher', output: 'RESEARCH CRON' }],
      },
    });
    expect((await app.request('GET', `/v1/agents/${writer.id}/runs`)).body.runs.map((r: any) => r.id)).toEqual([
      step.agentRunId,
    ]);
    const listed = await app.request('GET', `/v1/workflows/${workflowId}/runs?status=succeeded`);
    expect(listed.body.runs).toEqual([ran.body]);
    expect((await app.request('GET', `/v1/workflows/${workflowId}/runs?status=failed`)).body.runs).toEqual([]);
    // The ended run's actor left the cache, where it would only push out those of busy streams.
    await eventually(async () => expect(actors.size).toBe(cachedBefore));
  });

  it('fails the run when a step fails, and skips the later steps', async () => {
    const workflowId = await createWorkflow([
      { agent: 'researcher', action: 'research' },
      { agent: 'writer', action: 'FAIL now' },
      { agent: 'editor', action: 'edit' },
    ]);
    const ran = await trigger(workflowId, {});
    expect(ran.body.status).toBe('failed');
    expect(ran.body.error.code).toBe('step_failed');
    expect(ran.body.error.message).toContain('The model refuses');
    expect(ran.body.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(ran.body.steps[1].error).toMatchObject({ code: 'provider_error', status: 400 });
    expect(ran.body.steps[2].agentRunId).toBeNull();
    expect(model.requests).toHaveLength(2);
  });

  it('cancels a running workflow run: its step agent run is cancelled and the later steps are skipped', async () => {
    const workflowId = await createWorkflow([
      { agent: 'researcher', action: 'HANG' },
      { agent: 'writer', action: 'write' },
    ]);
    const run = (await trigger(workflowId, {}, 0)).body;
    let stepRunId = '';
    await eventually(async () => {
      const current = (await app.request('GET', `/v1/workflows/${workflowId}/runs/${run.id}`)).body;
      expect(current.steps[0]?.status).toBe('running');
      stepRunId = current.steps[0].agentRunId;
      expect(model.openRequests()).toBe(1);
    });
    const cancelled = await app.request('POST', `/v1/workflows/${workflowId}/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.steps.map((s: any) => s.status)).toEqual(['cancelled', 'skipped']);
    const researcher = (await app.request('GET', '/v1/agents')).body.agents.find((a: any) => a.name === 'researcher');
    await eventually(async () => {
      expect((await app.request('GET', `/v1/agents/${researcher.id}/runs/${stepRunId}`)).body.status).toBe('cancelled');
      expect(model.openRequests()).toBe(0);
    });
    expect((await app.request('POST', `/v1/workflows/${workflowId}/runs/${run.id}/cancel`)).body).toEqual(
      cancelled.body,
    );
    const done = (await trigger(workflowId, {}, 0)).body;
    await app.request('POST', `/v1/workflows/${workflowId}/runs/${done.id}/cancel`);
    const missing = await app.request(
      'POST',
      `/v1/workflows/${workflowId}/runs/wfrun_01JDQA3B4C5D6E7F8G9H0J1K2M/cancel`,
    );
    expect(missing.status).toBe(404);
  });

  it('fails a step whose agent was archived after the run started with agent_not_found; runs record their versions', async () => {
    const workflowId = await createWorkflow([
      { agent: 'researcher', action: 'research' },
      { agent: 'writer', action: 'write' },
    ]);
    model.enqueue({ kind: 'text', text: 'NOTES', delayMs: 1500 });
    const run = (await trigger(workflowId, {}, 0)).body;
    await eventually(async () => expect(model.openRequests()).toBe(1));
    const agents = (await app.request('GET', '/v1/agents')).body.agents;
    const byName = (name: string) => agents.find((a: { name: string }) => a.name === name);
    const writer = byName('writer').id;
    const refused = await app.request('DELETE', `/v1/agents/${writer}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(
      new RegExp(`^Agent "writer" is used by .*"wf [0-9.]+" \\(${workflowId}, step 1\\)`),
    );
    expect(refused.body.errors).toEqual([
      {
        path: 'force',
        message: expect.stringMatching(new RegExp(`^workflow ${workflowId} ".+" names this agent in step 1$`)),
      },
    ]);
    expect((await app.request('GET', `/v1/agents/${writer}`)).body.status).toBe('active');
    expect((await app.request('DELETE', `/v1/agents/${writer}?force=yes`)).status).toBe(400);
    expect((await app.request('DELETE', `/v1/agents/${writer}?force=true`)).status).toBe(200);

    let ended: any;
    await eventually(async () => {
      ended = (await app.request('GET', `/v1/workflows/${workflowId}/runs/${run.id}`)).body;
      expect(ended.status).toBe('failed');
    });
    expect(ended.workflowVersion).toBe(1);
    expect(ended.steps.map((s: any) => s.status)).toEqual(['succeeded', 'failed']);
    expect(ended.steps[1].error).toEqual({
      code: 'agent_not_found',
      message: `The agent named "writer" (${writer}) is archived; name another agent in this step`,
    });
    const stepRun = await app.request('GET', `/v1/agents/${byName('researcher').id}/runs/${ended.steps[0].agentRunId}`);
    expect(stepRun.body).toMatchObject({ status: 'succeeded', agentVersion: 1 });
  });

  it('answers 409 to cancelling a run that already succeeded', async () => {
    const workflowId = await createWorkflow([{ agent: 'researcher', action: 'go' }]);
    const ran = await trigger(workflowId, {});
    expect(ran.body.status).toBe('succeeded');
    const conflict = await app.request('POST', `/v1/workflows/${workflowId}/runs/${ran.body.id}/cancel`);
    expect(conflict.status).toBe(409);
  });
});
