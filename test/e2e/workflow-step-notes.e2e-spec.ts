import { lastUserMessage } from '../support/scripted-model-server';
import { storeFixtures } from '../support/store-fixtures';
import { WorkerService, runWorkflow, startWorkerService } from '../support/worker-service';

/** What a run says of its steps beyond their status: why a step was skipped, and what its task could not fill. */
describe.each(storeFixtures())('workflow run steps, why skipped and what is missing, on %s', (_name, createFixture) => {
  let service: WorkerService;

  beforeAll(async () => {
    service = await startWorkerService(createFixture, (body) => ({
      kind: 'text',
      text: lastUserMessage(body).toUpperCase(),
    }));
  });
  afterAll(() => service.close());

  async function run(steps: unknown[], input: Record<string, unknown>) {
    const { workflowId, run: ran } = await runWorkflow(service.app, steps, input);
    const read = await service.app.request('GET', `/v1/workflows/${workflowId}/runs/${ran.id}`);
    const listed = await service.app.request('GET', `/v1/workflows/${workflowId}/runs`);
    // The answer, the run read again and the run as listed say the same.
    expect(read.body).toEqual(ran);
    expect(listed.body.runs).toEqual([ran]);
    return ran;
  }

  it('says on each skipped step why it was skipped', async () => {
    const body = await run(
      [
        { id: 'news', agent: 'worker', action: 'news', when: { '==': [{ var: 'input.kind' }, 'news'] } },
        { id: 'publish', agent: 'worker', action: 'publish {{steps.news.output}}' },
        { id: 'memo', agent: 'worker', action: 'memo', needs: [] },
      ],
      { kind: 'memo' },
    );
    expect(body.steps.map((s: any) => [s.id, s.status, s.skipReason])).toEqual([
      ['news', 'skipped', 'condition_false'],
      ['publish', 'skipped', 'needs_skipped'],
      ['memo', 'succeeded', undefined],
    ]);
  });

  it('records on a step the placeholders whose path led nowhere, and none where every path led somewhere', async () => {
    const body = await run(
      [
        { id: 'typo', agent: 'worker', action: 'About {{input.topc}} and {{input.user.nmae}} for {{input.user.name}}' },
        { id: 'fine', agent: 'worker', action: 'About {{input.topic}}', needs: [] },
      ],
      { topic: 'cron', user: { name: 'Ada' } },
    );
    expect(body.steps[0]).toMatchObject({
      status: 'succeeded',
      task: 'About  and  for Ada',
      missing: ['input.topc', 'input.user.nmae'],
    });
    expect(body.steps[1].task).toBe('About cron');
    expect(body.steps[1]).not.toHaveProperty('missing');
  });
});
