import { given } from '../../test/support/decider-specification';
import { WorkflowCreated, WorkflowTriggered, workflowDecider } from './workflow';

const now = new Date('2026-01-01T00:00:00.000Z');
const created: WorkflowCreated = {
  type: 'WorkflowCreated',
  data: {
    id: 'wf_1',
    name: 'digest',
    trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
    steps: [{ agent: 'researcher', action: 'search' }],
    createdAt: now.toISOString(),
  },
};
const triggered = (runId: string, at: string): WorkflowTriggered => ({
  type: 'WorkflowTriggered',
  data: { workflowId: 'wf_1', runId, input: { topic: 'ai' }, trigger: { type: 'manual' }, triggeredAt: at },
});

describe('workflow decider', () => {
  it('creates a workflow', () => {
    const { id, name, trigger, steps } = created.data;
    given(workflowDecider, []).when({ type: 'CreateWorkflow', id, name, trigger, steps }, now).then([created]);
  });

  it('refuses to create a workflow twice', () => {
    const { id, name, trigger, steps } = created.data;
    given(workflowDecider, [created])
      .when({ type: 'CreateWorkflow', id, name, trigger, steps })
      .thenRefuses('conflict');
  });

  it('records a manual trigger with its run id and input', () => {
    const at = new Date('2026-01-02T10:00:00.000Z');
    given(workflowDecider, [created])
      .when(
        {
          type: 'TriggerWorkflow',
          workflowId: 'wf_1',
          runId: 'wfrun_1',
          input: { topic: 'ai' },
          trigger: { type: 'manual' },
        },
        at,
      )
      .then([triggered('wfrun_1', at.toISOString())]);
  });

  it('refuses to trigger a workflow that does not exist', () => {
    given(workflowDecider, [])
      .when({ type: 'TriggerWorkflow', workflowId: 'wf_1', runId: 'wfrun_1', input: {}, trigger: { type: 'manual' } })
      .thenRefuses('not_found');
  });

  it('starts active with no last run, and moves lastRun to the latest trigger', () => {
    given(workflowDecider, [created]).thenState({ ...created.data, status: 'active', lastRun: null });
    given(workflowDecider, [
      created,
      triggered('wfrun_1', '2026-01-02T10:00:00.000Z'),
      triggered('wfrun_2', '2026-01-03T10:00:00.000Z'),
    ]).thenState({
      ...created.data,
      status: 'active',
      lastRun: '2026-01-03T10:00:00.000Z',
    });
  });
});
