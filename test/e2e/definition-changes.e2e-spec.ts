import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe.each(storeFixtures())('changing and archiving definitions over HTTP on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeEach(async () => {
    fixture = await createFixture();
    // Runs are only recorded here: they stay queued.
    api = await startTestApp({ fixture, env: { RUN_EXECUTOR_ENABLED: 'false' } });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  const createAgent = async (name: string, extra: object = {}) => {
    const created = await api.request('POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini', ...extra });
    expect(created.status).toBe(201);
    return created.body;
  };
  const createWorkflow = async (body: object) => {
    const created = await api.request('POST', '/v1/workflows', body);
    expect(created.status).toBe(201);
    return created.body;
  };
  const patch = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    api.request('PATCH', path, body, { ...MERGE_PATCH, ...headers });

  describe('agents', () => {
    it('patches an agent: 200 with the whole agent, one version on, a new ETag; GET shows it', async () => {
      const agent = await createAgent('researcher', { instructions: 'Find.', tools: ['current_time'] });
      expect(agent.version).toBe(1);
      const read = await api.request('GET', `/v1/agents/${agent.id}`);
      expect(read.headers.get('etag')).toBe('"1"');

      const changed = await patch(`/v1/agents/${agent.id}`, { instructions: 'Cite sources.', maxSteps: 3 });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ ...agent, instructions: 'Cite sources.', maxSteps: 3, version: 2 });
      expect(changed.headers.get('etag')).toBe('"2"');
      const again = await api.request('GET', `/v1/agents/${agent.id}`);
      expect(again.body).toEqual(changed.body);
      expect(again.headers.get('etag')).toBe('"2"');
    });

    it('takes application/json too; null restores a default; a patch that changes nothing keeps the version', async () => {
      const agent = await createAgent('researcher', { instructions: 'Find.', tools: ['current_time'], maxSteps: 4 });
      const reset = await api.request('PATCH', `/v1/agents/${agent.id}`, {
        instructions: null,
        tools: null,
        maxSteps: null,
      });
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ instructions: '', tools: [], maxSteps: 10, version: 2 });
      const same = await patch(`/v1/agents/${agent.id}`, { instructions: '', maxSteps: 10 });
      expect(same.status).toBe(200);
      expect(same.body.version).toBe(2);
      expect((await patch(`/v1/agents/${agent.id}`, {})).body.version).toBe(2);
    });

    it('takes every field a create takes, approvalRequired among them, as the OpenAPI document says', async () => {
      const { components } = (await api.request('GET', '/v1/openapi.json')).body;
      const fields = (name: string) => Object.keys(components.schemas[name].properties).sort();
      expect(fields('AgentPatchSchema')).toEqual(fields('CreateAgentDto'));

      const agent = await createAgent('gatekeeper', { tools: ['current_time'] });
      const gated = await patch(`/v1/agents/${agent.id}`, { approvalRequired: ['current_time'] });
      expect(gated.status).toBe(200);
      expect(gated.body).toMatchObject({ approvalRequired: ['current_time'], version: 2 });
      const events = await api.request('GET', `/v1/events?stream=agent-${agent.id}`);
      expect(events.body.events.at(-1)).toMatchObject({
        type: 'AgentUpdated',
        data: { changes: { approvalRequired: ['current_time'] } },
      });
      const bad = await patch(`/v1/agents/${agent.id}`, { approvalRequired: ['not a tool'] });
      expect(bad.status).toBe(400);
      const cleared = await patch(`/v1/agents/${agent.id}`, { approvalRequired: null });
      expect(cleared.body).toMatchObject({ approvalRequired: [], version: 3 });
    });

    it('validates a patch as a create: 400 for unknown providers, tools, fields, removed required fields and fields that cannot change', async () => {
      const agent = await createAgent('researcher');
      const cases: Array<[unknown, Array<{ path: string; message: unknown }>]> = [
        [{ model: 'nope/m' }, [{ path: 'model', message: expect.stringMatching(/provider/) }]],
        [{ tools: ['no_such_tool'] }, [{ path: 'tools[0]', message: expect.stringMatching(/not a known tool/) }]],
        [{ maxSteps: 0 }, [{ path: 'maxSteps', message: expect.any(String) }]],
        [{ name: null }, [{ path: 'name', message: 'name is required' }]],
        [{ colour: 'red' }, [{ path: 'colour', message: 'is not a known field' }]],
        [{ id: 'agent_x' }, [{ path: 'id', message: 'cannot be changed' }]],
        [{ status: 'archived' }, [{ path: 'status', message: expect.stringMatching(/DELETE archives/) }]],
        [{ version: 7 }, [{ path: 'version', message: expect.stringMatching(/cannot be changed/) }]],
        [{ createdAt: 'x' }, [{ path: 'createdAt', message: 'cannot be changed' }]],
        [[{ name: 'x' }], [{ path: 'body', message: expect.stringMatching(/JSON object/) }]],
      ];
      for (const [body, errors] of cases) {
        const refused = await patch(`/v1/agents/${agent.id}`, body);
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(refused.body).toMatchObject({ type: '/problems/validation-error', errors });
      }
      const malformed = await patch(`/v1/agents/${agent.id}`, '{"name":');
      expect(malformed.status).toBe(400);
      expect(malformed.body.type).toBe('/problems/malformed-json');
      expect((await api.request('GET', `/v1/agents/${agent.id}`)).body).toEqual(agent);
    });

    it('answers 412 to a PATCH or DELETE whose If-Match names an older version, and applies one on the latest', async () => {
      const agent = await createAgent('researcher');
      await patch(`/v1/agents/${agent.id}`, { instructions: 'v2' });
      const stale = await patch(`/v1/agents/${agent.id}`, { instructions: 'v3' }, { 'if-match': '"1"' });
      expect(stale.status).toBe(412);
      expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(stale.body).toMatchObject({ type: '/problems/precondition-failed', status: 412 });
      const staleDelete = await api.request('DELETE', `/v1/agents/${agent.id}`, undefined, { 'if-match': '"1"' });
      expect(staleDelete.status).toBe(412);
      expect((await api.request('GET', `/v1/agents/${agent.id}`)).body).toMatchObject({
        instructions: 'v2',
        status: 'active',
      });

      const current = await patch(`/v1/agents/${agent.id}`, { instructions: 'v3' }, { 'if-match': '"2"' });
      expect(current.status).toBe(200);
      expect(current.headers.get('etag')).toBe('"3"');
      expect((await patch(`/v1/agents/${agent.id}`, { maxSteps: 2 }, { 'if-match': '*' })).status).toBe(200);
      expect((await patch(`/v1/agents/${agent.id}`, { maxSteps: 3 }, { 'if-match': 'nonsense' })).status).toBe(400);
    });

    it('renames: the new name is unique (409 if taken), the old one is free again', async () => {
      const agent = await createAgent('researcher');
      await createAgent('writer');
      const taken = await patch(`/v1/agents/${agent.id}`, { name: 'writer' });
      expect(taken.status).toBe(409);
      expect(taken.body.errors).toEqual([{ path: 'name', message: 'is already used by another agent' }]);

      const renamed = await patch(`/v1/agents/${agent.id}`, { name: 'scout' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'scout', version: 2 });
      expect((await api.request('POST', '/v1/agents', { name: 'scout', model: 'openai/m' })).status).toBe(409);
      const reused = await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/m' });
      expect(reused.status).toBe(201);
    });

    it('archives: 200 with the archived agent, again on a repeat; hidden from the list unless asked for; runs are 409; the name is free', async () => {
      const agent = await createAgent('researcher');
      const archived = await api.request('DELETE', `/v1/agents/${agent.id}`);
      expect(archived.status).toBe(200);
      expect(archived.body).toEqual({ ...agent, status: 'archived', version: 2 });
      expect(archived.headers.get('etag')).toBe('"2"');
      const repeat = await api.request('DELETE', `/v1/agents/${agent.id}`);
      expect(repeat.status).toBe(200);
      expect(repeat.body).toEqual(archived.body);

      expect((await api.request('GET', '/v1/agents')).body.agents).toEqual([]);
      const listed = await api.request('GET', '/v1/agents?status=archived');
      expect(listed.body.agents.map((a: { id: string }) => a.id)).toEqual([agent.id]);
      expect((await api.request('GET', `/v1/agents/${agent.id}`)).body.status).toBe('archived');

      const run = await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'x' });
      expect(run.status).toBe(409);
      expect(run.body.detail).toMatch(/archived/);
      expect((await patch(`/v1/agents/${agent.id}`, { maxSteps: 2 })).status).toBe(409);

      const successor = await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/m' });
      expect(successor.status).toBe(201);
      expect((await api.request('GET', '/v1/agents')).body.agents.map((a: { id: string }) => a.id)).toEqual([
        successor.body.id,
      ]);
    });

    it('answers 404 to changing or archiving an agent that does not exist', async () => {
      const missing = 'agent_01ARZ3NDEKTSV4RRFFQ69G5FAV';
      expect((await patch(`/v1/agents/${missing}`, { maxSteps: 2 })).status).toBe(404);
      expect((await api.request('DELETE', `/v1/agents/${missing}`)).status).toBe(404);
    });

    it('records on each run the agent version it was queued with', async () => {
      const agent = await createAgent('researcher');
      const first = await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'one' });
      expect(first.body.agentVersion).toBe(1);
      await patch(`/v1/agents/${agent.id}`, { instructions: 'changed' });
      const second = await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'two' });
      expect(second.body.agentVersion).toBe(2);
      const runs = (await api.request('GET', `/v1/agents/${agent.id}/runs`)).body.runs;
      expect(runs.map((r: { agentVersion: number }) => r.agentVersion)).toEqual([1, 2]);
    });
  });

  describe('workflows', () => {
    const steps = [{ agent: 'researcher', action: 'search' }];
    const daily = { type: 'schedule', cron: '0 9 * * *', timezone: 'Europe/Berlin' };
    beforeEach(async () => {
      await createAgent('researcher');
      await createAgent('writer');
    });

    it('patches a workflow: merges the trigger field by field, replaces steps, counts the version, sends the ETag', async () => {
      const workflow = await createWorkflow({ name: 'digest', trigger: daily, steps });
      expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).headers.get('etag')).toBe('"1"');
      const changed = await patch(`/v1/workflows/${workflow.id}`, {
        trigger: { cron: '30 9 * * *' },
        steps: [...steps, { agent: 'writer', action: 'write' }],
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).toBe('"2"');
      expect(changed.body).toMatchObject({
        trigger: { type: 'schedule', cron: '30 9 * * *', timezone: 'Europe/Berlin' },
        steps: [...steps, { agent: 'writer', action: 'write' }],
        version: 2,
        nextRunAt: '2026-03-02T08:30:00.000Z',
      });
      expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body).toEqual(changed.body);

      const manual = await patch(`/v1/workflows/${workflow.id}`, { trigger: null });
      expect(manual.body).toMatchObject({ trigger: { type: 'manual' }, nextRunAt: null, version: 3 });
    });

    it('takes every field a create takes, as the OpenAPI document says', async () => {
      const { components } = (await api.request('GET', '/v1/openapi.json')).body;
      const fields = (name: string) => Object.keys(components.schemas[name].properties).sort();
      expect(fields('WorkflowPatchSchema')).toEqual(fields('CreateWorkflowDto'));
    });

    it('validates a patch as a create: 400 for a bad cron, a removed name, read-only and unknown fields; 422 for an unknown agent', async () => {
      const workflow = await createWorkflow({ name: 'digest', trigger: daily, steps });
      const cases: Array<[unknown, string]> = [
        [{ trigger: { cron: '61 * * * *' } }, 'trigger.cron'],
        [{ trigger: { timezone: 'Mars/Olympus' } }, 'trigger.timezone'],
        [{ trigger: { type: 'manual' } }, 'trigger.cron'],
        [{ name: null }, 'name'],
        [{ steps: null }, 'steps'],
        [{ steps: [] }, 'steps'],
        [{ lastRun: null }, 'lastRun'],
        [{ nextRunAt: 'x' }, 'nextRunAt'],
        [{ status: 'paused' }, 'status'],
        [{ version: 2 }, 'version'],
        [{ colour: 'red' }, 'colour'],
      ];
      for (const [body, path] of cases) {
        const refused = await patch(`/v1/workflows/${workflow.id}`, body);
        expect([refused.status, refused.body.errors?.[0]?.path]).toEqual([400, path]);
      }
      const unknown = await patch(`/v1/workflows/${workflow.id}`, { steps: [{ agent: 'nobody', action: 'x' }] });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual([{ path: 'steps[0].agent', message: 'no agent is named "nobody"' }]);
      expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body.version).toBe(1);
    });

    it('answers 412 to a PATCH or DELETE with an older If-Match', async () => {
      const workflow = await createWorkflow({ name: 'digest', steps });
      await patch(`/v1/workflows/${workflow.id}`, { name: 'digest 2' });
      expect((await patch(`/v1/workflows/${workflow.id}`, { name: 'x' }, { 'if-match': '"1"' })).status).toBe(412);
      const staleDelete = await api.request('DELETE', `/v1/workflows/${workflow.id}`, undefined, { 'if-match': '"1"' });
      expect(staleDelete.status).toBe(412);
      expect(staleDelete.body.type).toBe('/problems/precondition-failed');
      const applied = await patch(`/v1/workflows/${workflow.id}`, { name: 'digest 3' }, { 'if-match': '"2"' });
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ name: 'digest 3', version: 3 });
    });

    it('refuses a step naming an archived agent (422) at create and at update', async () => {
      const workflow = await createWorkflow({ name: 'digest', steps });
      const writer = (await api.request('GET', '/v1/agents?name=writer')).body.agents[0];
      expect((await api.request('DELETE', `/v1/agents/${writer.id}`)).status).toBe(200);
      const created = await api.request('POST', '/v1/workflows', {
        name: 'other',
        steps: [{ agent: 'writer', action: 'x' }],
      });
      expect(created.status).toBe(422);
      const updated = await patch(`/v1/workflows/${workflow.id}`, { steps: [{ agent: 'writer', action: 'x' }] });
      expect(updated.status).toBe(422);
      expect(updated.body.errors).toEqual([
        { path: 'steps[0].agent', message: `the agent named "writer" (${writer.id}) is archived` },
      ]);
    });

    it('archives: 200 with the archived workflow, again on a repeat; hidden unless asked for; trigger, pause, resume and PATCH are 409', async () => {
      const workflow = await createWorkflow({ name: 'digest', trigger: daily, steps });
      const archived = await api.request('DELETE', `/v1/workflows/${workflow.id}`);
      expect(archived.status).toBe(200);
      expect(archived.body).toEqual({ ...workflow, status: 'archived', version: 2, nextRunAt: null });
      expect(archived.headers.get('etag')).toBe('"2"');
      expect((await api.request('DELETE', `/v1/workflows/${workflow.id}`)).body).toEqual(archived.body);

      expect((await api.request('GET', '/v1/workflows')).body.workflows).toEqual([]);
      expect((await api.request('GET', '/v1/workflows?status=archived')).body.workflows).toEqual([
        expect.objectContaining({ id: workflow.id, status: 'archived' }),
      ]);
      for (const [method, path, body] of [
        ['POST', `/v1/workflows/${workflow.id}/trigger`, { input: {} }],
        ['POST', `/v1/workflows/${workflow.id}/pause`, undefined],
        ['POST', `/v1/workflows/${workflow.id}/resume`, undefined],
        ['PATCH', `/v1/workflows/${workflow.id}`, { name: 'x' }],
      ] as const) {
        const refused = await api.request(method, path, body);
        expect([method, path, refused.status, refused.body.type]).toEqual([method, path, 409, '/problems/conflict']);
      }
    });

    it('records on each run the workflow version it was triggered at', async () => {
      const workflow = await createWorkflow({ name: 'digest', steps });
      const first = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: {} });
      expect(first.body.workflowVersion).toBe(1);
      await patch(`/v1/workflows/${workflow.id}`, { name: 'digest 2' });
      const second = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: {} });
      expect(second.body.workflowVersion).toBe(2);
      const runs = (await api.request('GET', `/v1/workflows/${workflow.id}/runs`)).body.runs;
      expect(runs.map((r: { workflowVersion: number }) => r.workflowVersion)).toEqual([1, 2]);
    });
  });
});
