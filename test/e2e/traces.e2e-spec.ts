import { SchedulerRegistry } from '@nestjs/schedule';
import { SpanStatusCode } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { scheduleJobName } from '../../src/workflows/scheduling/workflow-scheduler';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

/**
 * Traces of runs, read from an in-memory span exporter: the request, its command and appends, the run, its model
 * calls with their GenAI attributes and its tool call, all in one trace, also when the run executes after a restart.
 * The model is a scripted OpenAI-compatible server (a test double for a paid provider) over real HTTP.
 */
describe('traces', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp | undefined;
  // A stopped service shuts its exporter down: each start gets a new one.
  let spans = new InMemorySpanExporter();

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) =>
      JSON.stringify(body.messages).includes('Fail')
        ? { kind: 'error', status: 400, message: 'This model cannot' }
        : hasToolResult(body)
          ? { kind: 'text', text: 'It is noon.', usage: { inputTokens: 30, outputTokens: 5 } }
          : {
              kind: 'toolCalls',
              calls: [{ name: 'current_time', arguments: {} }],
              usage: { inputTokens: 20, outputTokens: 8 },
            },
    );
  });
  afterAll(() => model.close());
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const start = (env: Record<string, string> = {}, dataDir?: string) => {
    spans = new InMemorySpanExporter();
    return startTestApp({ dataDir, spanExporter: spans, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, ...env } });
  };

  async function createAgent(api: TestApp): Promise<string> {
    const created = await api.request('POST', '/v1/agents', {
      name: `clock-${Math.random()}`,
      model: 'openai-compatible/test-model',
      instructions: 'Tell the time.',
      tools: ['current_time'],
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const named = (name: string | RegExp) =>
    spans.getFinishedSpans().filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  const one = (name: string | RegExp): ReadableSpan => {
    const found = named(name);
    expect(found.map((s) => s.name)).toHaveLength(1);
    return found[0];
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  /** Whether `span` descends from `ancestor` through the finished spans. */
  const descends = (span: ReadableSpan, ancestor: ReadableSpan): boolean => {
    const byId = new Map(spans.getFinishedSpans().map((s) => [s.spanContext().spanId, s]));
    for (let at: ReadableSpan | undefined = span; at; at = byId.get(parentOf(at) ?? '')) {
      if (parentOf(at) === ancestor.spanContext().spanId) return true;
    }
    return false;
  };

  it("shows a run's tree: the POST, its command and appends, the run, the model calls and the tool call", async () => {
    app = await start();
    const agentId = await createAgent(app);
    // The caller's own trace is continued.
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const caller = 'b7ad6b7169203331';
    const ran = await app.request(
      'POST',
      `/v1/agents/${agentId}/run`,
      { task: 'What time is it?' },
      { prefer: 'wait=10', traceparent: `00-${traceId}-${caller}-01` },
    );
    expect(ran.body.status).toBe('succeeded');
    await eventually(() => expect(named(/^invoke_agent /)).toHaveLength(1));

    const post = one('POST /v1/agents/:agentId/run');
    expect(post.spanContext().traceId).toBe(traceId);
    expect(parentOf(post)).toBe(caller);
    expect(post.kind).toBe(1); // SERVER
    expect(post.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });

    const command = one('command RunAgentCommand');
    expect(parentOf(command)).toBe(post.spanContext().spanId);
    const queued = named('append agentrun').find((s) => descends(s, command));
    // A slot was free: the run was queued and claimed in one append.
    expect(queued?.attributes['event_store.event_types']).toBe('AgentRunQueued,AgentRunStarted');

    const run = one(/^invoke_agent clock-/);
    expect(run.spanContext().traceId).toBe(traceId);
    expect(descends(run, post)).toBe(true);
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': agentId,
      'gen_ai.request.model': 'test-model',
      'app.agent_run.id': ran.body.id,
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 13,
    });

    const calls = named('chat test-model');
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(parentOf(call)).toBe(run.spanContext().spanId);
    expect(calls.map((c) => c.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai-compatible',
        'gen_ai.request.model': 'test-model',
        'gen_ai.usage.input_tokens': 20,
        'gen_ai.usage.output_tokens': 8,
        'gen_ai.response.finish_reasons': ['tool-calls'],
      }),
      expect.objectContaining({ 'gen_ai.usage.input_tokens': 30, 'gen_ai.usage.output_tokens': 5 }),
    ]);
    const tool = one('execute_tool current_time');
    expect(parentOf(tool)).toBe(run.spanContext().spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'current_time',
      'gen_ai.tool.call.id': ran.body.toolCalls[0].id,
    });
    // The tool ran between the two model calls, and its result was recorded inside the run.
    expect(named('append agentrun').filter((s) => descends(s, run)).length).toBeGreaterThanOrEqual(3);
    // No prompts nor outputs by default.
    const attributes = spans.getFinishedSpans().flatMap((s) => Object.keys(s.attributes));
    expect(attributes.filter((key) => /messages|instructions|arguments|result/.test(key))).toEqual([]);
  });

  it('gives every append its span on a store with STREAM_PREFIX (the agent and its name claim in one append)', async () => {
    app = await start({ STREAM_PREFIX: 'tenant1' });
    await createAgent(app);
    const append = one('append agentname, agent');
    expect(descends(append, one('POST /v1/agents'))).toBe(true);
    expect(append.attributes['event_store.streams']).toMatch(/^agentname-.+,agent-agent_/);
  });

  it("marks a failed run's span and its model call's as errors", async () => {
    app = await start();
    const agentId = await createAgent(app);
    const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'Fail now' }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('failed');
    await eventually(() => expect(named(/^invoke_agent /)).toHaveLength(1));
    const run = one(/^invoke_agent /);
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBe(ran.body.error.code);
    expect(one('chat test-model').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('puts prompts, outputs, arguments and results into spans with OTEL_CAPTURE_CONTENT=true', async () => {
    app = await start({ OTEL_CAPTURE_CONTENT: 'true' });
    const agentId = await createAgent(app);
    await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'What time is it?' }, { prefer: 'wait=10' });
    await eventually(() => expect(named(/^invoke_agent /)).toHaveLength(1));
    const [first, second] = named('chat test-model');
    expect(first.attributes['gen_ai.input.messages']).toContain('What time is it?');
    expect(first.attributes['gen_ai.system_instructions']).toContain('Tell the time.');
    expect(second.attributes['gen_ai.output.messages']).toContain('It is noon.');
    expect(one('execute_tool current_time').attributes['gen_ai.tool.call.result']).toContain('utc');
  });

  it('shows a workflow run with a child per step, each step holding its agent run', async () => {
    app = await start();
    const agentId = await createAgent(app);
    const agent = (await app.request('GET', `/v1/agents/${agentId}`)).body.name;
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'twice',
      steps: [
        { agent, action: 'What time is it?' },
        { agent, action: 'And now? {{steps.0.output}}' },
      ],
    });
    expect(workflow.status).toBe(201);
    const triggered = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, {}, { prefer: 'wait=20' });
    expect(triggered.body.status).toBe('succeeded');
    await eventually(() => expect(named('workflow_run twice')).toHaveLength(1));

    const post = one('POST /v1/workflows/:workflowId/trigger');
    const run = one('workflow_run twice');
    expect(run.spanContext().traceId).toBe(post.spanContext().traceId);
    expect(descends(run, post)).toBe(true);
    expect(run.attributes).toMatchObject({
      'app.workflow_run.id': triggered.body.id,
      'app.workflow_run.status': 'succeeded',
    });
    const steps = named(/^workflow_step /).sort(
      (a, b) => Number(a.attributes['app.workflow_step.index']) - Number(b.attributes['app.workflow_step.index']),
    );
    expect(steps.map((s) => s.name)).toEqual([`workflow_step 0 ${agent}`, `workflow_step 1 ${agent}`]);
    const agentRuns = named(/^invoke_agent /);
    expect(agentRuns).toHaveLength(2);
    steps.forEach((step, index) => {
      expect(parentOf(step)).toBe(run.spanContext().spanId);
      const agentRun = agentRuns.find(
        (r) => r.attributes['app.agent_run.id'] === triggered.body.steps[index].agentRunId,
      )!;
      expect(parentOf(agentRun)).toBe(step.spanContext().spanId);
      // The step's span covers its agent run.
      expect(hrTimeToMilliseconds(step.startTime)).toBeLessThanOrEqual(hrTimeToMilliseconds(agentRun.startTime) + 1);
    });
  });

  it('starts a trace of its own for a scheduled tick', async () => {
    app = await start();
    const agentId = await createAgent(app);
    const agent = (await app.request('GET', `/v1/agents/${agentId}`)).body.name;
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'ticking',
      steps: [{ agent, action: 'What time is it?' }],
      trigger: { type: 'schedule', cron: '* * * * *' },
    });
    expect(workflow.status).toBe(201);
    // The minute's tick, fired now rather than waited for.
    app.clock.set('2026-03-01T12:01:00.000Z');
    await app.app.get(SchedulerRegistry).getCronJob(scheduleJobName('* * * * *', 'UTC')).fireOnTick();
    await eventually(() => expect(named('workflow_run ticking')).toHaveLength(1), 10_000);
    const tick = named('scheduled tick').find((s) => descends(one('workflow_run ticking'), s))!;
    expect(tick).toBeDefined();
    expect(tick.parentSpanContext).toBeUndefined();
    expect(one('workflow_run ticking').attributes['app.workflow_run.trigger']).toBe('schedule');
    // The tick's triggers are recorded in one batch, under the tick.
    const batch = named('append batch').find((s) => descends(s, tick))!;
    expect(batch.attributes['event_store.batch.appends']).toBe(1);
    expect(batch.attributes['event_store.batch.events']).toBeGreaterThanOrEqual(2);
  });

  it("continues the request's trace when the run executes after a restart", async () => {
    const dataDir = temporaryDataDir();
    app = await start({ RUN_EXECUTOR_ENABLED: 'false' }, dataDir);
    const agentId = await createAgent(app);
    const queued = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'What time is it?' });
    expect(queued.status).toBe(202);
    // (A stopped exporter forgets its spans: read them first.)
    await eventually(() => expect(named('POST /v1/agents/:agentId/run')).toHaveLength(1));
    const post = one('POST /v1/agents/:agentId/run');
    expect(named(/^invoke_agent /)).toEqual([]);
    await app.close();
    app = undefined;

    app = await start({}, dataDir);
    await eventually(() => expect(named(/^invoke_agent /)).toHaveLength(1));
    const run = one(/^invoke_agent /);
    expect(run.spanContext().traceId).toBe(post.spanContext().traceId);
    // Its parent is the request's command, recorded with the queued run.
    expect(run.parentSpanContext).toMatchObject({ traceId: post.spanContext().traceId, isRemote: true });
    expect(named('chat test-model').every((call) => parentOf(call) === run.spanContext().spanId)).toBe(true);
  });
});
