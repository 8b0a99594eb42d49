import { CHECKPOINT_STORE, CheckpointStore } from '../../src/consumers/checkpoint-store';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { TestApp, request, startTestApp, temporaryDataDir } from '../support/test-app';

/**
 * The model calls current_time once, then answers, taking a while (runs are still being executed, and others wait
 * for a slot, when the process is killed); the task names the run in every call.
 */
function timeTeller(body: ChatCompletionsBody) {
  if (hasToolResult(body)) return { kind: 'text' as const, text: 'It is late', delayMs: 300 };
  return { kind: 'toolCalls' as const, calls: [{ id: 'call_time', name: 'current_time', arguments: {} }] };
}

const AGENT = {
  name: 'clock',
  model: 'openai-compatible/m',
  tools: ['current_time'],
  approvalRequired: ['current_time'],
};
const APPROVE = { decisions: [{ toolCallId: 'call_time', decision: 'approve' }] };

/** The model calls made after a person's decision (they carry the tool's result), by task. */
function resumedCalls(model: ScriptedServer<ChatCompletionsBody>): Map<string, number> {
  const calls = new Map<string, number>();
  for (const body of model.requests.filter(hasToolResult)) {
    const task = lastUserMessage(body);
    calls.set(task, (calls.get(task) ?? 0) + 1);
  }
  return calls;
}

/**
 * A run resumed by an approval is executed once, even when the executor reads the log again from a checkpoint
 * behind the run's queueing and its approval (as a kill -9 leaves it: the checkpoint is written once a second).
 */
describe('a run resumed after an approval, its executor replaying the log', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp | undefined;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(timeTeller);
  });
  afterEach(async () => {
    await app?.close();
    await model.close();
  });

  it('calls the model once after the decision, and never after the run has ended', async () => {
    const dataDir = temporaryDataDir();
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '1' };
    // The run waits for a person; the executor's checkpoint is never saved, as if the process had been killed.
    app = await startTestApp({ dataDir, env });
    const checkpoints = app.app.get<CheckpointStore>(CHECKPOINT_STORE);
    const save = checkpoints.save.bind(checkpoints);
    checkpoints.save = (name, position) => (name === 'agent-run-executor' ? undefined : save(name, position));
    const agent = (await app.request('POST', '/v1/agents', AGENT)).body.id;
    const ran = await app.request('POST', `/v1/agents/${agent}/run`, { task: 'time?' }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('waiting');
    await app.close();
    // Approved while no executor runs: the run is queued again, its queueing and its approval both after the
    // executor's checkpoint.
    app = await startTestApp({ dataDir, env: { ...env, RUN_EXECUTOR_ENABLED: 'false' } });
    const path = `/v1/agents/${agent}/runs/${ran.body.id}`;
    expect((await app.request('POST', `${path}/approvals`, APPROVE)).status).toBe(202);
    await app.close();

    app = await startTestApp({ dataDir, env });
    await eventually(async () => expect((await app!.request('GET', path)).body.status).toBe('succeeded'));
    // A second execution would call the model right after the end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(resumedCalls(model)).toEqual(new Map([['time?', 1]]));
    const events = (await app.request('GET', `${path}/events`)).body.events.map((e: { type: string }) => e.type);
    expect(events.filter((type: string) => type === 'AgentRunStarted')).toHaveLength(2);
    expect(events.filter((type: string) => type === 'AgentRunToolCalled')).toHaveLength(1);
  });
});

const RUNS = 20;
const TRIALS = 3;

/**
 * The filer's case: runs waiting for approval are all approved, the process is killed with -9 150 ms later, and
 * the service starts again on the same data. Whatever each run had reached, none calls its model twice after its
 * decision (the second call would come after the run's end, and go unrecorded).
 */
describe('runs approved just before a kill -9', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let service: ServiceProcess | undefined;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(timeTeller);
  });
  afterEach(async () => {
    await service?.kill();
    await model.close();
  });

  it(`resume once each, after the restart, in ${TRIALS} trials of ${RUNS} runs`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      model.requests.length = 0;
      const dataDir = temporaryDataDir();
      // A short lease: the runs the killed process had claimed end as interrupted soon after the restart.
      const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_LEASE_MS: '1000' };
      service = await startServiceProcess(dataDir, env);
      let { url } = service;
      const agent = (await request(url, 'POST', '/v1/agents', AGENT)).body.id;
      const runs = await Promise.all(
        Array.from({ length: RUNS }, async (_, i) => {
          const ran = await request(
            url,
            'POST',
            `/v1/agents/${agent}/run`,
            { task: `time ${i}?` },
            {
              prefer: 'wait=10',
            },
          );
          expect(ran.body.status).toBe('waiting');
          return ran.body.id as string;
        }),
      );
      const path = (runId: string) => `/v1/agents/${agent}/runs/${runId}`;
      await Promise.all(runs.map((runId) => request(url, 'POST', `${path(runId)}/approvals`, APPROVE)));
      await new Promise((resolve) => setTimeout(resolve, 150));
      await service.kill();

      service = await startServiceProcess(dataDir, env);
      ({ url } = service);
      const ended: Array<{ task: string; status: string }> = [];
      await eventually(async () => {
        ended.length = 0;
        for (const runId of runs) {
          const run = (await request(url, 'GET', path(runId))).body;
          expect(['succeeded', 'failed']).toContain(run.status);
          ended.push(run);
        }
      }, 20_000);
      // A second execution would call the model right after the end.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const calls = resumedCalls(model);
      for (const { task, status } of ended) {
        // Interrupted (claimed by the killed process): its call may have gone out before the kill, or not.
        expect({ task, calls: calls.get(task) ?? 0 }).toEqual({
          task,
          calls: status === 'succeeded' ? 1 : expect.any(Number),
        });
        expect(calls.get(task) ?? 0).toBeLessThanOrEqual(1);
      }
      await service.kill();
      service = undefined;
    }
  }, 240_000);
});
