import { WorkflowStep } from '../../src/workflows/workflow/workflow.state';
import { WorkflowRunEvent, WorkflowRunQueued } from '../../src/workflows/workflow-run/workflow-run.events';
import { StepOutcome, WorkflowRunCommand } from '../../src/workflows/workflow-run/workflow-run.commands';
import { WorkflowRunAggregate, WorkflowRunState } from '../../src/workflows/workflow-run/workflow-run.state';
import { workflowRunDecider } from '../../src/workflows/workflow-run/workflow-run';

const at = new Date('2026-01-01T00:00:00.000Z');

/** A run of `steps` with `input`, driven command by command; agent run ids count up from agentrun_1. */
export function runOf(steps: WorkflowStep[], input: Record<string, unknown>, maxMapItems?: number) {
  let n = 0;
  const newRunId = () => `agentrun_${++n}`;
  const queued: WorkflowRunQueued = {
    type: 'WorkflowRunQueued',
    data: { id: 'wfrun_1', workflowId: 'wf_1', input, trigger: { type: 'manual' }, createdAt: at.toISOString() },
  };
  let state: WorkflowRunState = workflowRunDecider.evolve(null, queued);
  const send = (command: WorkflowRunCommand): WorkflowRunEvent[] => {
    const events = workflowRunDecider.decide(state, command, at);
    state = events.reduce(workflowRunDecider.evolve, state);
    return events;
  };
  const start = () =>
    send({ type: 'StartWorkflowRun', workflowName: 'w', workflowVersion: 1, steps, maxMapItems, newRunId });
  const end = (index: number, agentRunId: string, outcome: StepOutcome) =>
    send({ type: 'EndWorkflowStep', index, agentRunId, outcome, newRunId });
  return { start, end, state: () => state as WorkflowRunAggregate };
}
