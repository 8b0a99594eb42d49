import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Agents that call other agents as tools (`agent:<name>`), run for real: every run is an ordinary run of the
 * service, and the models are a scripted OpenAI-compatible server over HTTP (a test double for a paid provider),
 * which answers by the model each request names: `supervisor`, `researcher`, `writer`, …
 */
describe('agents as tools', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  /** Each scripted model's answer, by its name. */
  let replies: Record<string, (body: ChatCompletionsBody) => ScriptedReply>;
  /** The requests open at the server when each request of a child model arrived. */
  let openAtArrival: Record<string, number[]>;

  const names = () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    return { supervisor: `supervisor-${suffix}`, researcher: `researcher-${suffix}`, writer: `writer-${suffix}` };
  };
  const toolName = (agent: string) => `agent_${agent.replace(/[^A-Za-z0-9_-]+/g, '_')}`;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      (openAtArrival[body.model] ??= []).push(model.openRequests());
      const reply = replies[body.model];
      return reply ? reply(body) : { kind: 'error', status: 400, message: `no script for ${body.model}` };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', MODEL_MAX_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => {
    model.requests.splice(0);
    openAtArrival = {};
  });

  async function createAgent(body: Record<string, unknown>) {
    const created = await app.request('POST', '/v1/agents', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  /** A supervisor calling the researcher and the writer in one turn, then answering with what they said. */
  async function supervisorTeam(children: Record<string, Record<string, unknown>> = {}) {
    const n = names();
    const researcher = await createAgent({
      name: n.researcher,
      model: 'openai-compatible/researcher',
      description: 'Finds facts.',
      ...children.researcher,
    });
    const writer = await createAgent({ name: n.writer, model: 'openai-compatible/writer', ...children.writer });
    const supervisor = await createAgent({
      name: n.supervisor,
      model: 'openai-compatible/supervisor',
      tools: [`agent:${n.researcher}`, `agent:${n.writer}`],
    });
    replies = {
      supervisor: (body) =>
        hasToolResult(body)
          ? {
              kind: 'text',
              text: `Combined: ${toolResults(body)
                .map((r) => String(r.content))
                .join(' | ')}`,
            }
          : {
              kind: 'toolCalls',
              calls: [
                {
                  id: 'call_r',
                  name: toolName(n.researcher),
                  arguments: { task: 'Find facts', context: { topic: 'owls' } },
                },
                { id: 'call_w', name: toolName(n.writer), arguments: { task: 'Write a line' } },
              ],
            },
      researcher: () => ({
        kind: 'text',
        text: 'Owls hoot.',
        delayMs: 300,
        usage: { inputTokens: 7, outputTokens: 3 },
      }),
      writer: () => ({ kind: 'text', text: 'A line.', delayMs: 300, usage: { inputTokens: 5, outputTokens: 2 } }),
    };
    return { n, researcher, writer, supervisor };
  }

  const run = (agentId: string, task = 'Go', wait = 10) =>
    app.request('POST', `/v1/agents/${agentId}/run`, { task }, { prefer: `wait=${wait}` });
  const getRun = (agentId: string, runId: string, query = '') =>
    app.request('GET', `/v1/agents/${agentId}/runs/${runId}${query}`);

  it('runs two sub-agents called in one turn at once, and gives their answers to the next model call', async () => {
    const { n, researcher, writer, supervisor } = await supervisorTeam();
    const ran = await run(supervisor.id);
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ status: 'succeeded', depth: 0, parentRunId: null, waitingOn: [] });
    expect(ran.body.output).toBe('Combined: "Owls hoot." | "A line."');

    // The model saw each agent as a tool, described by the agent's description.
    const first = model.requests.find((body) => body.model === 'supervisor')!;
    const tool = first.tools!.find((t) => t.function.name === toolName(n.researcher))!;
    expect(tool.function.description).toBe('Finds facts.');
    expect(tool.function.parameters).toMatchObject({ required: ['task'] });
    // Both children were asked before either answered: the second arrived while the first was open.
    expect(openAtArrival.researcher.length + openAtArrival.writer.length).toBe(2);
    expect(Math.max(openAtArrival.researcher[0], openAtArrival.writer[0])).toBeGreaterThanOrEqual(2);
    // A child was sent its task and context, as an ordinary run's.
    const sentToResearcher = model.requests.find((body) => body.model === 'researcher')!;
    expect(lastUserMessage(sentToResearcher)).toContain('Find facts');
    expect(lastUserMessage(sentToResearcher)).toContain('owls');

    const { children } = ran.body;
    expect(children).toEqual([
      {
        runId: expect.any(String),
        agentId: researcher.id,
        agent: n.researcher,
        toolCallId: 'call_r',
        status: 'succeeded',
      },
      { runId: expect.any(String), agentId: writer.id, agent: n.writer, toolCallId: 'call_w', status: 'succeeded' },
    ]);
    const child = await getRun(researcher.id, children[0].runId);
    expect(child.body).toMatchObject({
      status: 'succeeded',
      output: 'Owls hoot.',
      parentRunId: ran.body.id,
      parentToolCallId: 'call_r',
      depth: 1,
      task: 'Find facts',
      context: { topic: 'owls' },
    });
    // Listed with its agent's runs, like any run.
    const listed = await app.request('GET', `/v1/agents/${researcher.id}/runs`);
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toContain(children[0].runId);

    // Its own usage, and with its children's.
    const own = ran.body.usage;
    expect(ran.body.totalUsage).toEqual({
      inputTokens: own.inputTokens + 12,
      outputTokens: own.outputTokens + 5,
    });
    const tree = await getRun(supervisor.id, ran.body.id, '?include=tree');
    expect(tree.body.tree).toMatchObject({
      runId: ran.body.id,
      agent: null,
      status: 'succeeded',
      children: [
        { runId: children[0].runId, agent: n.researcher, status: 'succeeded', children: [] },
        { runId: children[1].runId, agent: n.writer, status: 'succeeded', children: [] },
      ],
    });
    expectProblem(await getRun(supervisor.id, ran.body.id, '?include=everything'), 400);
  });

  it("gives a child's failure to the parent's model as the tool's error, and the parent goes on", async () => {
    const { supervisor } = await supervisorTeam();
    replies.writer = () => ({ kind: 'error', status: 400, message: 'bad request for the writer' });
    const ran = await run(supervisor.id);
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.children.map((c: { status: string }) => c.status)).toEqual(['succeeded', 'failed']);
    const last = model.requests.filter((body) => body.model === 'supervisor').pop()!;
    const results = toolResults(last).map((r) => String(r.content));
    expect(results[0]).toBe('"Owls hoot."');
    expect(results[1]).toMatch(/provider_error.*bad request for the writer/);
  });

  it('cancels the children with their parent', async () => {
    const { researcher, supervisor } = await supervisorTeam();
    replies.researcher = () => ({ kind: 'hang' });
    const started = await run(supervisor.id, 'Go', 0);
    const parentId = started.body.id;
    let childId = '';
    await eventually(async () => {
      const parent = await getRun(supervisor.id, parentId);
      expect(parent.body.status).toBe('waiting');
      expect(parent.body.waitingOn.length).toBeGreaterThan(0);
      childId = parent.body.children[0].runId;
      expect((await getRun(researcher.id, childId)).body.status).toBe('running');
    });
    const cancelled = await app.request('POST', `/v1/agents/${supervisor.id}/runs/${parentId}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    await eventually(async () => expect((await getRun(researcher.id, childId)).body.status).toBe('cancelled'));
    await eventually(() => expect(model.openRequests()).toBe(0));
  });

  it("shows a child's pending approval on the parent; approving it through the child finishes the tree", async () => {
    const { researcher, supervisor } = await supervisorTeam({
      researcher: { tools: ['current_time'], approvalRequired: ['current_time'] },
    });
    replies.researcher = (body) =>
      hasToolResult(body)
        ? { kind: 'text', text: 'It is late.' }
        : { kind: 'toolCalls', calls: [{ id: 'call_time', name: 'current_time', arguments: {} }] };
    replies.writer = () => ({ kind: 'text', text: 'A line.', delayMs: 3000 });
    // A wait on the parent answers as soon as a run below it waits for a person: before the other child ends.
    const started = await run(supervisor.id, 'Go', 20);
    expect(started.status).toBe(202);
    expect(started.body.children.map((child: { status: string }) => child.status).sort()).toEqual([
      'running',
      'waiting',
    ]);
    expect(started.body.pendingApprovals).toHaveLength(1);
    const pending = started.body.pendingApprovals[0];
    expect(pending).toMatchObject({ toolCallId: 'call_time', tool: 'current_time', agentId: researcher.id });
    expect(pending.runId).not.toBe(started.body.id);
    // The parent's own route decides only its own calls.
    const wrong = await app.request('POST', `/v1/agents/${supervisor.id}/runs/${started.body.id}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
    });
    expectProblem(wrong, 422);
    const approved = await app.request('POST', `/v1/agents/${researcher.id}/runs/${pending.runId}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
    });
    expect(approved.status).toBeLessThan(300);
    await eventually(async () => {
      const parent = await getRun(supervisor.id, started.body.id);
      expect(parent.body.status).toBe('succeeded');
      expect(parent.body.output).toContain('It is late.');
    });
  });

  it('bounds recursion by RUN_MAX_DEPTH: the deepest call is the tool error depth_exceeded', async () => {
    const name = `recursive-${Math.random().toString(36).slice(2, 8)}`;
    const agent = await createAgent({ name, model: 'openai-compatible/recursive', tools: [`agent:${name}`] });
    replies = {
      recursive: (body) =>
        hasToolResult(body)
          ? { kind: 'text', text: `up: ${String(toolResults(body)[0].content).slice(0, 80)}` }
          : { kind: 'toolCalls', calls: [{ id: 'call_self', name: toolName(name), arguments: { task: 'Deeper' } }] },
    };
    const ran = await run(agent.id);
    expect(ran.body.status).toBe('succeeded');
    const tree = (await getRun(agent.id, ran.body.id, '?include=tree')).body.tree;
    let depth = 0;
    let node = tree;
    while (node.children.length) {
      node = node.children[0];
      depth++;
    }
    expect(depth).toBe(4);
    const deepest = (await getRun(agent.id, node.runId)).body;
    expect(deepest.depth).toBe(4);
    expect(deepest.children).toEqual([]);
    expect(deepest.toolCalls[0].error).toMatch(/^depth_exceeded/);
  });

  it('refuses an agent tool that names no active agent, and approvals on calling an agent', async () => {
    const missing = await app.request('POST', '/v1/agents', {
      name: `a-${Math.random()}`,
      model: 'openai-compatible/m',
      tools: ['agent:nobody-by-this-name'],
    });
    expectProblem(missing, 400);
    expect(missing.body.errors).toEqual([
      { path: 'tools[0]', message: expect.stringContaining('nobody-by-this-name') },
    ]);
    const { n } = await supervisorTeam();
    const approval = await app.request('POST', '/v1/agents', {
      name: `a-${Math.random()}`,
      model: 'openai-compatible/m',
      tools: [`agent:${n.researcher}`],
      approvalRequired: [`agent:${n.researcher}`],
    });
    expectProblem(approval, 400);
    expect(approval.body.errors).toEqual([
      { path: 'approvalRequired[0]', message: expect.stringContaining('is an agent') },
    ]);
  });
});

describe('agents as tools, one run at a time', () => {
  it('finishes a tree of three with RUN_CONCURRENCY=1: a waiting parent holds no slot', async () => {
    const model = await startScriptedOpenAIServer((body) =>
      hasToolResult(body) || body.model === 'leaf'
        ? { kind: 'text', text: `${body.model} done` }
        : {
            kind: 'toolCalls',
            calls: [
              {
                id: `call_${body.model}`,
                name: `agent_${body.model === 'root' ? 'middle' : 'leaf'}`,
                arguments: { task: 'Go on' },
              },
            ],
          },
    );
    const app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '1', RATE_LIMIT: '0' },
    });
    try {
      await app.request('POST', '/v1/agents', { name: 'leaf', model: 'openai-compatible/leaf' });
      await app.request('POST', '/v1/agents', {
        name: 'middle',
        model: 'openai-compatible/middle',
        tools: ['agent:leaf'],
      });
      const root = await app.request('POST', '/v1/agents', {
        name: 'root',
        model: 'openai-compatible/root',
        tools: ['agent:middle'],
      });
      const ran = await app.request('POST', `/v1/agents/${root.body.id}/run`, { task: 'Go' }, { prefer: 'wait=10' });
      expect(ran.body).toMatchObject({ status: 'succeeded', output: 'root done' });
      // Each model call was made once: root, middle, leaf, middle again, root again.
      expect(model.requests.map((body) => body.model)).toEqual(['root', 'middle', 'leaf', 'middle', 'root']);
      const tree = await app.request('GET', `/v1/agents/${root.body.id}/runs/${ran.body.id}?include=tree`);
      expect(tree.body.tree.children[0].children[0]).toMatchObject({ agent: 'leaf', status: 'succeeded' });
    } finally {
      await app.close();
      await model.close();
    }
  });
});
