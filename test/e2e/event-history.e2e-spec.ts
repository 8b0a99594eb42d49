import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

// Runs stay queued, so each run's stream holds what the request recorded.
const env = { RUN_EXECUTOR_ENABLED: 'false', SCHEDULER_ENABLED: 'false' };
const UNKNOWN = '01JDQ8ZK5N2B3C4D5E6F7G8H9J';

describe.each(storeFixtures())('the history of a resource on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;

  beforeEach(async () => {
    fixture = await createFixture();
    api = await startTestApp({ fixture, env });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  async function seed() {
    const agent = await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/gpt-4o-mini' });
    const agentRun = await api.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'look' });
    const workflow = await api.request('POST', '/v1/workflows', {
      name: 'digest',
      steps: [{ agent: 'researcher', action: 'search' }],
    });
    const workflowId = workflow.body.id;
    await api.request('POST', `/v1/workflows/${workflowId}/pause`);
    await api.request('POST', `/v1/workflows/${workflowId}/resume`);
    const workflowRun = await api.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: { topic: 'x' } });
    expect([agentRun.status, workflowRun.status]).toEqual([202, 202]);
    return { agentId: agent.body.id, agentRunId: agentRun.body.id, workflowId, workflowRunId: workflowRun.body.id };
  }

  const types = (body: { events: Array<{ type: string }> }) => body.events.map((event) => event.type);

  it('shows the events of an agent, a workflow and their runs, oldest first, in the subscribers’ envelope', async () => {
    const { agentId, agentRunId, workflowId, workflowRunId } = await seed();
    const agent = await api.request('GET', `/v1/agents/${agentId}/events`);
    expect(agent.status).toBe(200);
    expect(agent.body).toEqual({
      events: [
        {
          id: expect.any(String),
          position: expect.stringMatching(/^\d+$/),
          type: 'AgentCreated',
          stream: `agent-${agentId}`,
          revision: '0',
          data: expect.objectContaining({ id: agentId, name: 'researcher' }),
          metadata: { correlationId: agentId, causationId: agentId, schemaVersion: 1 },
          recordedAt: expect.stringMatching(/Z$/),
        },
      ],
      nextAfter: '0',
    });
    const agentRun = await api.request('GET', `/v1/agents/${agentId}/runs/${agentRunId}/events`);
    expect(types(agentRun.body)).toEqual(['AgentRunQueued']);
    expect(agentRun.body.events[0]).toMatchObject({
      stream: `agentrun-${agentRunId}`,
      data: { id: agentRunId, task: 'look' },
    });
    const workflow = await api.request('GET', `/v1/workflows/${workflowId}/events`);
    expect(types(workflow.body)).toEqual(['WorkflowCreated', 'WorkflowPaused', 'WorkflowResumed', 'WorkflowTriggered']);
    expect(workflow.body.events.map((event: { revision: string }) => event.revision)).toEqual(['0', '1', '2', '3']);
    const workflowRun = await api.request('GET', `/v1/workflows/${workflowId}/runs/${workflowRunId}/events`);
    expect(types(workflowRun.body)).toEqual(['WorkflowRunQueued']);
    // The same envelopes as the log's.
    const log = await api.request('GET', `/v1/events?stream=workflow-${workflowId}`);
    expect(log.body.events).toEqual(workflow.body.events);
  });

  it('pages with limit and after (a revision), following nextAfter', async () => {
    const { workflowId } = await seed();
    const path = `/v1/workflows/${workflowId}/events`;
    const first = await api.request('GET', `${path}?limit=3`);
    expect(types(first.body)).toEqual(['WorkflowCreated', 'WorkflowPaused', 'WorkflowResumed']);
    expect(first.body.nextAfter).toBe('2');
    const second = await api.request('GET', `${path}?limit=3&after=${first.body.nextAfter}`);
    expect(second.body).toMatchObject({ events: [{ type: 'WorkflowTriggered', revision: '3' }], nextAfter: '3' });
    expect((await api.request('GET', `${path}?after=3`)).body).toEqual({ events: [], nextAfter: '3' });
  });

  it('answers 404 for an unknown resource and 400 for a bad id or parameter', async () => {
    const { agentId, workflowId } = await seed();
    for (const path of [
      `/v1/agents/agent_${UNKNOWN}/events`,
      `/v1/workflows/wf_${UNKNOWN}/events`,
      `/v1/agents/${agentId}/runs/agentrun_${UNKNOWN}/events`,
      `/v1/workflows/${workflowId}/runs/wfrun_${UNKNOWN}/events`,
    ]) {
      const response = await api.request('GET', path);
      expect(response.status).toBe(404);
      expect(response.body.type).toBe('/problems/not-found');
    }
    for (const [path, field] of [
      [`/v1/agents/wf_${UNKNOWN}/events`, 'agentId'],
      [`/v1/workflows/${workflowId}/events?after=-1`, 'after'],
      [`/v1/workflows/${workflowId}/events?limit=201`, 'limit'],
      [`/v1/agents/${agentId}/events?types=AgentCreated`, 'types'],
    ]) {
      const response = await api.request('GET', path);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body.errors[0].path).toBe(field);
    }
  });
});
