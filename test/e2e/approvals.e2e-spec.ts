import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { StaleRunSweeper } from '../../src/execution/agent-runs/stale-run-sweeper';
import { eventually } from '../support/eventually';
import { startServiceProcess } from '../support/service-process';
import { expectProblem } from '../support/problem-expectations';
import { readSse } from '../support/sse-client';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, request, startTestApp, temporaryDataDir } from '../support/test-app';

/** The model calls current_time once, then answers with what the tool gave back. */
function timeTeller(body: ChatCompletionsBody) {
  if (hasToolResult(body)) return { kind: 'text' as const, text: `Result: ${toolResults(body)[0].content}` };
  return {
    kind: 'toolCalls' as const,
    calls: [{ id: 'call_time', name: 'current_time', arguments: { timezone: 'UTC' } }],
  };
}

const AGENT = {
  model: 'openai-compatible/m',
  tools: ['current_time'],
  approvalRequired: ['current_time'],
};

/** A person in the loop: tool calls that wait for an approval, against the scripted model server (a test double). */
describe('tool approvals', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  const env = () => ({
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    RUN_APPROVAL_TIMEOUT_MS: '60000',
    API_KEYS: 'write-key-0123456789',
    API_READ_KEYS: 'read-key-0123456789ab',
  });
  const auth = { authorization: 'Bearer write-key-0123456789' };
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(method, path, body, { ...auth, ...headers });

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(timeTeller);
    app = await startTestApp({ env: env() });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function waitingRun(): Promise<{ agentId: string; runId: string; run: any }> {
    const agent = await call('POST', '/v1/agents', { name: `agent ${Math.random()}`, ...AGENT });
    expect(agent.status).toBe(201);
    expect(agent.body.approvalRequired).toEqual(['current_time']);
    const ran = await call(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'What time is it?' },
      { prefer: 'wait=10' },
    );
    expect(ran.status).toBe(202);
    return { agentId: agent.body.id, runId: ran.body.id, run: ran.body };
  }

  const ended = async (agentId: string, runId: string) => {
    let run: any;
    await eventually(async () => {
      run = (await call('GET', `/v1/agents/${agentId}/runs/${runId}`)).body;
      expect(['succeeded', 'failed', 'cancelled']).toContain(run.status);
    });
    return run;
  };

  it('waits at a call that needs a person, then runs it once approved', async () => {
    const { agentId, runId, run } = await waitingRun();
    expect(run).toMatchObject({
      status: 'waiting',
      toolCalls: [],
      pendingApprovals: [
        { toolCallId: 'call_time', tool: 'current_time', args: { timezone: 'UTC' }, requestedAt: expect.any(String) },
      ],
    });
    expect(model.requests).toHaveLength(1);
    const decided = await call('POST', `/v1/agents/${agentId}/runs/${runId}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
    });
    expect(decided.status).toBe(202);
    expect(decided.body.pendingApprovals).toEqual([]);
    const done = await ended(agentId, runId);
    expect(done).toMatchObject({
      status: 'succeeded',
      toolCalls: [{ id: 'call_time', tool: 'current_time', input: { timezone: 'UTC' } }],
    });
    expect(done.toolCalls[0].output.timezone).toBe('UTC');
    expect(done.output).toContain('"timezone":"UTC"');
    // The resumed conversation: the task, the call and its result, rebuilt from the log.
    expect(model.requests[1].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    const history = (await call('GET', `/v1/agents/${agentId}/runs/${runId}/events`)).body.events.map(
      (e: any) => e.type,
    );
    expect(history).toEqual([
      'AgentRunQueued',
      'AgentRunStarted',
      'AgentRunApprovalRequested',
      'AgentRunApprovalsDecided',
      'AgentRunStarted',
      'AgentRunToolCalled',
      'AgentRunToolReturned',
      'AgentRunSucceeded',
    ]);
  });

  it('runs an approved call with the arguments the person edited', async () => {
    const { agentId, runId } = await waitingRun();
    await call('POST', `/v1/agents/${agentId}/runs/${runId}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve', args: { timezone: 'Asia/Tokyo' } }],
    });
    const done = await ended(agentId, runId);
    expect(done.toolCalls[0].input).toEqual({ timezone: 'Asia/Tokyo' });
    expect(done.toolCalls[0].output.timezone).toBe('Asia/Tokyo');
  });

  it('gives the model a rejected call as its result, and goes on', async () => {
    const { agentId, runId } = await waitingRun();
    await call('POST', `/v1/agents/${agentId}/runs/${runId}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'reject', reason: 'not now' }],
    });
    const done = await ended(agentId, runId);
    expect(done.status).toBe('succeeded');
    expect(done.toolCalls[0].output).toEqual({ rejected: true, reason: 'not now' });
    expect(JSON.parse(toolResults(model.requests[1])[0].content as string)).toEqual({
      rejected: true,
      reason: 'not now',
    });
  });

  it('streams approval_requested with the pending calls', async () => {
    const { agentId, runId } = await waitingRun();
    const { messages } = await readSse(`${app.url}/v1/agents/${agentId}/runs/${runId}/stream`, {
      headers: auth,
      stopWhen: (m) => m.event === 'approval_requested',
    });
    const requested = messages.find((m) => m.event === 'approval_requested')!;
    expect(requested.data.pendingApprovals).toEqual([
      expect.objectContaining({ toolCallId: 'call_time', tool: 'current_time', args: { timezone: 'UTC' } }),
    ]);
  });

  it('refuses bad decisions with problem+json and changes nothing', async () => {
    const { agentId, runId } = await waitingRun();
    const path = `/v1/agents/${agentId}/runs/${runId}/approvals`;
    expectProblem(await call('POST', path, { decisions: [] }), 400);
    expectProblem(await call('POST', path, { decisions: [{ toolCallId: 'call_time', decision: 'maybe' }] }), 400);
    expectProblem(
      await call('POST', path, { decisions: [{ toolCallId: 'call_time', decision: 'approve', args: 3 }] }),
      400,
    );
    const unknown = await call('POST', path, { decisions: [{ toolCallId: 'call_other', decision: 'approve' }] });
    expectProblem(unknown, 422);
    expect(unknown.body.errors[0].path).toBe('decisions[0].toolCallId');
    const readOnly = await app.request(
      'POST',
      path,
      { decisions: [{ toolCallId: 'call_time', decision: 'approve' }] },
      {
        authorization: 'Bearer read-key-0123456789ab',
      },
    );
    expectProblem(readOnly, 403);
    expect((await call('GET', `/v1/agents/${agentId}/runs/${runId}`)).body.status).toBe('waiting');
    await call('POST', path, { decisions: [{ toolCallId: 'call_time', decision: 'approve' }] });
    await ended(agentId, runId);
    expectProblem(
      await call('POST', path, { decisions: [{ toolCallId: 'call_time', decision: 'approve' }] }),
      409,
      'not-waiting',
    );
  });

  it('cancels a waiting run at once', async () => {
    const { agentId, runId } = await waitingRun();
    const cancelled = await call('POST', `/v1/agents/${agentId}/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', pendingApprovals: [] });
    expect(model.requests).toHaveLength(1);
  });

  it('fails a run that waits longer than RUN_APPROVAL_TIMEOUT_MS with approval_timeout', async () => {
    const { agentId, runId } = await waitingRun();
    const sweeper = app.app.get(StaleRunSweeper);
    expect(await sweeper.sweep()).toBe(0);
    app.clock.advance(60_001);
    expect(await sweeper.sweep()).toBe(1);
    const run = (await call('GET', `/v1/agents/${agentId}/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'approval_timeout' } });
  });

  it('holds no RUN_CONCURRENCY slot while waiting', async () => {
    await app.close();
    app = await startTestApp({ env: { ...env(), RUN_CONCURRENCY: '1' } });
    const first = await waitingRun();
    const second = await waitingRun();
    expect([first.run.status, second.run.status]).toEqual(['waiting', 'waiting']);
  });
});

describe('tool approvals across a kill -9', () => {
  it('resumes a waiting run approved after its process was killed and the service started again', async () => {
    const model = await startScriptedOpenAIServer(timeTeller);
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    const service = await startServiceProcess(dataDir, env);
    let app: TestApp | undefined;
    try {
      const { url } = service;
      const agent = await request(url, 'POST', '/v1/agents', { name: 'killed', ...AGENT });
      const ran = await request(
        url,
        'POST',
        `/v1/agents/${agent.body.id}/run`,
        { task: 'time?' },
        { prefer: 'wait=10' },
      );
      expect(ran.body.status).toBe('waiting');
      await service.kill();
      app = await startTestApp({ dataDir, env });
      const path = `/v1/agents/${agent.body.id}/runs/${ran.body.id}`;
      expect((await app.request('GET', path)).body.status).toBe('waiting');
      const decided = await app.request('POST', `${path}/approvals`, {
        decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
      });
      expect(decided.status).toBe(202);
      await eventually(async () => expect((await app!.request('GET', path)).body.status).toBe('succeeded'));
      expect(model.requests).toHaveLength(2);
    } finally {
      await service.kill();
      await app?.close();
      await model.close();
    }
  }, 60_000);
});

const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

describe('tool approvals on two instances of one EventStoreDB (test double)', () => {
  let fixture: StoreFixture;
  let model: ScriptedServer<ChatCompletionsBody>;
  let first: TestApp;
  let second: TestApp;

  beforeEach(async () => {
    fixture = await createTestDouble();
    model = await startScriptedOpenAIServer(timeTeller);
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
    first = await startTestApp({ fixture, env });
    second = await startTestApp({ fixture, env });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
    await model.close();
    await fixture.stop();
  });

  it('resumes an approved run exactly once', async () => {
    const agent = await first.request('POST', '/v1/agents', { name: 'shared', ...AGENT });
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const ran = await first.request('POST', `/v1/agents/${agent.body.id}/run`, { task: `time ${i}` });
      runs.push(ran.body.id);
    }
    const path = (runId: string) => `/v1/agents/${agent.body.id}/runs/${runId}`;
    await eventually(async () => {
      for (const runId of runs) expect((await second.request('GET', path(runId))).body.status).toBe('waiting');
    }, 10_000);
    // Both instances see each decision; one claims each resume.
    for (const [i, runId] of runs.entries()) {
      const api = i % 2 ? first : second;
      const decided = await api.request('POST', `${path(runId)}/approvals`, {
        decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
      });
      expect(decided.status).toBe(202);
    }
    await eventually(async () => {
      for (const runId of runs) expect((await first.request('GET', path(runId))).body.status).toBe('succeeded');
    }, 15_000);
    for (const runId of runs) {
      const events = (await second.request('GET', `${path(runId)}/events`)).body.events.map((e: any) => e.type);
      expect(events.filter((t: string) => t === 'AgentRunToolCalled')).toHaveLength(1);
      expect(events.filter((t: string) => t === 'AgentRunSucceeded')).toHaveLength(1);
    }
    // Each run: one model call before the wait, one after.
    expect(model.requests).toHaveLength(8);
  });
});
