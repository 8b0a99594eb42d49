import { given } from '../../test/support/decider-specification';
import { WorkflowRunQueued, workflowRunDecider } from './workflow-run';

const queued: WorkflowRunQueued = {
  type: 'WorkflowRunQueued',
  data: {
    id: 'wfrun_1',
    workflowId: 'wf_1',
    input: { a: 1 },
    trigger: { type: 'manual' },
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};
const { id, workflowId, input, trigger, createdAt } = queued.data;

describe('workflow run decider', () => {
  it('queues a run', () => {
    given(workflowRunDecider, [])
      .when({ type: 'QueueWorkflowRun', id, workflowId, input, trigger, createdAt })
      .then([queued]);
  });

  it('treats queueing the same run of the same workflow again as a no-op', () => {
    given(workflowRunDecider, [queued])
      .when({ type: 'QueueWorkflowRun', id, workflowId, input, trigger, createdAt })
      .then([]);
  });

  it('refuses the run id for another workflow', () => {
    given(workflowRunDecider, [queued])
      .when({ type: 'QueueWorkflowRun', id, workflowId: 'wf_2', input, trigger, createdAt })
      .thenRefuses('conflict');
  });

  it('evolves into a queued run', () => {
    given(workflowRunDecider, [queued]).thenState({ ...queued.data, status: 'queued' });
  });
});
