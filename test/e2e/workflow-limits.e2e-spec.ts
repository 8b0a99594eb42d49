import { expectProblem } from '../support/problem-expectations';
import { storeFixtures } from '../support/store-fixtures';
import { WorkerService, runWorkflow, startWorkerService } from '../support/worker-service';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** What a workflow step may cost: a condition's budget and size, and the length of its rendered task. */
describe.each(storeFixtures())('workflow limits on %s', (_name, createFixture) => {
  let service: WorkerService;

  beforeEach(async () => {
    service = await startWorkerService(createFixture, () => ({ kind: 'text', text: 'done' }));
  });
  afterEach(() => service.close());

  const run = async (steps: unknown[], input: Record<string, unknown>) =>
    (await runWorkflow(service.app, steps, input)).run;

  it('refuses a condition of more than 1,000 values at create, naming the field, and creates nothing', async () => {
    const when = { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(20_000)] }] };
    const refused = await service.app.request('POST', '/v1/workflows', {
      name: 'long list',
      steps: [{ agent: 'worker', action: 'x', when }],
    });
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([{ path: 'steps[0].when', message: expect.stringContaining('1,000 values') }]);
    expect((await service.app.request('GET', '/v1/workflows')).body.workflows).toEqual([]);
  });

  it('fails the step and the run with condition_budget_exceeded when a condition uses up its budget', async () => {
    const when = { map: [range(150), { map: [range(150), { map: [range(150), { var: '' }] }] }] };
    const body = await run(
      [
        { id: 'costly', agent: 'worker', action: 'x', when },
        { id: 'after', agent: 'worker', action: 'y' },
      ],
      {},
    );
    expect(body.status).toBe('failed');
    expect(body.error).toEqual({ code: 'condition_budget_exceeded', message: expect.stringContaining('50,000') });
    expect(body.steps.map((s: any) => [s.id, s.status, s.error?.code ?? null])).toEqual([
      ['costly', 'failed', 'condition_budget_exceeded'],
      ['after', 'skipped', null],
    ]);
    expect(service.model.requests).toHaveLength(0);
  });

  it('fails the step and the run with task_too_long when the filled-in task is over 100,000 characters', async () => {
    const body = await run(
      [
        { id: 'short', agent: 'worker', action: 'first' },
        { id: 'long', agent: 'worker', action: 'x {{input}}' },
      ],
      { text: 'y'.repeat(200_000) },
    );
    expect(body.status).toBe('failed');
    expect(body.error).toEqual({ code: 'task_too_long', message: expect.stringContaining('100,000 characters') });
    expect(body.steps.map((s: any) => [s.id, s.status, s.task?.length ?? null, s.error?.code ?? null])).toEqual([
      ['short', 'succeeded', 5, null],
      ['long', 'failed', null, 'task_too_long'],
    ]);
    expect(service.model.requests).toHaveLength(1);
  });
});
