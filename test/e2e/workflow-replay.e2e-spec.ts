import { lastUserMessage } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { SequentialIds } from '../support/sequential-ids';
import { storeFixtures } from '../support/store-fixtures';
import { temporaryDataDir } from '../support/test-app';
import { WorkerService, startWorkerService } from '../support/worker-service';

/** Replay from a step: the steps it does not lead to keep their outputs (no model call), the rest run again. */
describe.each(storeFixtures())('workflow run replay on %s', (_name, createFixture) => {
  let service: WorkerService;

  beforeAll(async () => {
    service = await startWorkerService(
      createFixture,
      (body) => ({ kind: 'text', text: lastUserMessage(body).toUpperCase() }),
      { dataDir: temporaryDataDir(), ids: new SequentialIds() },
    );
  });
  afterAll(() => service.close());

  // research → draft → edit, and a side branch that needs nothing.
  const steps = [
    { id: 'research', agent: 'worker', action: 'research {{input.topic}}' },
    { id: 'side', agent: 'worker', action: 'side note', needs: [] },
    {
      id: 'draft',
      agent: 'worker',
      action: 'draft {{steps.research.output}} for {{input.reader}}',
      needs: ['research'],
    },
    { id: 'edit', agent: 'worker', action: 'edit {{steps.draft.output}}' },
  ];
  let workflowId = '';
  let original: any;

  const ended = async (runId: string) => {
    let run: any;
    await eventually(async () => {
      run = (await service.app.request('GET', `/v1/workflows/${workflowId}/runs/${runId}`)).body;
      expect(['succeeded', 'failed', 'cancelled']).toContain(run.status);
    });
    return run;
  };

  it('replays from a middle step: the steps it does not lead to are reused without a model call', async () => {
    workflowId = (await service.app.request('POST', '/v1/workflows', { name: 'replayed', steps })).body.id;
    const triggered = await service.app.request('POST', `/v1/workflows/${workflowId}/trigger`, {
      input: { topic: 'cron', reader: 'ops' },
    });
    original = await ended(triggered.body.id);
    expect(original.output).toBe('EDIT DRAFT RESEARCH CRON FOR OPS');
    const calls = service.model.requests.length;

    const replay = await service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, {
      fromStep: 'draft',
      input: { topic: 'ignored', reader: 'devs' },
    });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('location')).toBe(`/v1/workflows/${workflowId}/runs/${replay.body.id}`);
    expect(replay.body.replayOf).toEqual({ runId: original.id, fromStep: 'draft' });
    const done = await ended(replay.body.id);
    expect(done.status).toBe('succeeded');
    expect(done.workflowVersion).toBe(1);
    expect(done.steps.map((s: any) => [s.id, s.status, s.reused ?? false, s.output])).toEqual([
      ['research', 'succeeded', true, 'RESEARCH CRON'],
      ['side', 'succeeded', true, 'SIDE NOTE'],
      ['draft', 'succeeded', false, 'DRAFT RESEARCH CRON FOR DEVS'],
      ['edit', 'succeeded', false, 'EDIT DRAFT RESEARCH CRON FOR DEVS'],
    ]);
    expect(done.steps[0].agentRunId).toBeNull();
    // Two model calls: draft and edit.
    expect(service.model.requests.slice(calls).map(lastUserMessage)).toEqual([
      'draft RESEARCH CRON for devs',
      'edit DRAFT RESEARCH CRON FOR DEVS',
    ]);
  });

  it('replays after a restart, with the original version by default or the current one', async () => {
    await service.app.request('PATCH', `/v1/workflows/${workflowId}`, {
      steps: [...steps.slice(0, 3), { id: 'edit', agent: 'worker', action: 'polish {{steps.draft.output}}' }],
    });
    await service.restart();
    const calls = service.model.requests.length;
    const replay = await service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, {
      fromStep: 'edit',
    });
    expect(replay.status).toBe(202);
    const done = await ended(replay.body.id);
    expect([done.workflowVersion, done.output]).toEqual([1, 'EDIT DRAFT RESEARCH CRON FOR OPS']);
    expect(service.model.requests.slice(calls).map(lastUserMessage)).toEqual(['edit DRAFT RESEARCH CRON FOR OPS']);

    const current = await service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, {
      fromStep: 'edit',
      version: 'current',
    });
    const polished = await ended(current.body.id);
    expect([polished.workflowVersion, polished.output]).toEqual([2, 'POLISH DRAFT RESEARCH CRON FOR OPS']);
    expect(service.model.requests.length - calls).toBe(2);
  });

  it('refuses a step that is not in the run (400 naming fromStep) and a run that does not exist (404)', async () => {
    const unknown = await service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, {
      fromStep: 'nope',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: 'fromStep' })]);
    const missing = await service.app.request(
      'POST',
      `/v1/workflows/${workflowId}/runs/wfrun_01ARZ3NDEKTSV4RRFFQ69G5FAV/replay`,
      {
        fromStep: 'edit',
      },
    );
    expect(missing.status).toBe(404);
    expect(
      (await service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, {})).status,
    ).toBe(400);
  });

  it('takes fromStep as a position, counted from 0, and records the id of the step there', async () => {
    const replay = (fromStep: unknown) =>
      service.app.request('POST', `/v1/workflows/${workflowId}/runs/${original.id}/replay`, { fromStep });
    const calls = service.model.requests.length;
    const byPosition = await replay(3);
    expect(byPosition.status).toBe(202);
    expect(byPosition.body.replayOf).toEqual({ runId: original.id, fromStep: 'edit' });
    const done = await ended(byPosition.body.id);
    expect(done.steps.map((s: any) => s.reused ?? false)).toEqual([true, true, true, false]);
    expect(service.model.requests.slice(calls).map(lastUserMessage)).toEqual(['edit DRAFT RESEARCH CRON FOR OPS']);

    const beyond = await replay(4);
    expect([beyond.status, beyond.body.errors]).toEqual([
      400,
      [{ path: 'fromStep', message: 'there is no step at position 4: the steps are numbered from 0 to 3' }],
    ]);
    for (const bad of [-1, 1.5]) {
      const refused = await replay(bad);
      expect([refused.status, refused.body.errors]).toEqual([
        400,
        [{ path: 'fromStep', message: 'fromStep as a number must be an integer from 0' }],
      ]);
    }
    const notAStep = await replay(true);
    expect(notAStep.body.errors).toEqual([
      { path: 'fromStep', message: 'fromStep must be a step id or a position (an integer from 0)' },
    ]);
  });
});
