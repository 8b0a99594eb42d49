import { RecordedEvent } from '../../src/event-store/event-store';
import { ProjectionRunner } from '../../src/read-models/projection-runner';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { SseMessage, readSse } from '../support/sse-client';
import { TestApp, startTestApp } from '../support/test-app';

/** The model calls current_time once, then answers. */
function timeTeller(body: ChatCompletionsBody) {
  if (hasToolResult(body)) return { kind: 'text' as const, text: 'It is noon.' };
  return { kind: 'toolCalls' as const, calls: [{ id: 'call_time', name: 'current_time', arguments: {} }] };
}

/**
 * A run's stream tells only what the read models show, so that a client which reads the run when the stream tells
 * it of a change (the console does, on a request for approval) finds that change. Against a scripted
 * OpenAI-compatible server (a test double for a provider).
 */
describe('a run stream behind the read models', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  /** Lets the read models go on (a failed test must not leave them held). */
  let release = () => {};

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(timeTeller);
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, READ_YOUR_WRITES_TIMEOUT_MS: '50' },
    });
  });
  afterEach(async () => {
    release();
    await app.close();
    await model.close();
  });

  it('holds back what the log has and the read models do not yet show, and tells it once they do', async () => {
    const agent = await app.request('POST', '/v1/agents', {
      name: 'careful',
      model: 'openai-compatible/m',
      tools: ['current_time'],
      approvalRequired: ['current_time'],
    });
    const waiting = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 't' }, { prefer: 'wait=10' });
    expect(waiting.body.status).toBe('waiting');
    const runPath = `/v1/agents/${agent.body.id}/runs/${waiting.body.id}`;

    // From here the read models apply nothing until `release`, while the run goes on in the log.
    const runner = app.app.get(ProjectionRunner) as unknown as { handle(events: RecordedEvent[]): void };
    const apply = runner.handle.bind(runner);
    const released = new Promise<void>((resolve) => (release = resolve));
    let isReleased = false;
    jest.spyOn(runner, 'handle').mockImplementation((events) => released.then(() => apply(events)));
    const decided = await app.request('POST', `${runPath}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
    });
    expect(decided.status).toBe(202);

    const told: Array<[string, boolean]> = [];
    let readWhenAsked: Promise<any> | undefined;
    const stream = readSse(`${app.url}${runPath}/stream`, {
      onMessage: (message: SseMessage) => {
        told.push([message.event, isReleased]);
        if (message.event !== 'approval_requested') return;
        // The run as a client reads it when the stream asks for an approval; then the read models go on.
        readWhenAsked = app.request('GET', runPath).finally(() => {
          isReleased = true;
          release();
        });
      },
    });
    const { messages } = await stream;

    expect((await readWhenAsked).body.pendingApprovals).toEqual([expect.objectContaining({ toolCallId: 'call_time' })]);
    const asked = told.findIndex(([event]) => event === 'approval_requested');
    expect(told.slice(0, asked + 1).every(([, afterRelease]) => !afterRelease)).toBe(true);
    // Everything after the request for approval came once the read models showed it.
    expect(told.slice(asked + 1).every(([, afterRelease]) => afterRelease)).toBe(true);
    expect(told.slice(asked + 1).map(([event]) => event)).toEqual(
      expect.arrayContaining(['approvals_decided', 'tool_call', 'tool_result', 'end']),
    );
    expect(messages.at(-1)).toEqual({ event: 'end', data: expect.objectContaining({ status: 'succeeded' }) });
    expect((await app.request('GET', runPath)).body.status).toBe('succeeded');
  });
});
