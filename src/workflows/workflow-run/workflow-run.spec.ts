import { given } from '../../../test/support/decider-specification';
import { WorkflowRunEvent, WorkflowRunQueued, WorkflowRunStarted, WorkflowStepStarted } from './workflow-run.events';
import { stepContext } from './step-context';
import { workflowRunDecider } from './workflow-run';

const at = '2026-01-01T00:00:05.000Z';
const now = new Date(at);
const queued: WorkflowRunQueued = {
  type: 'WorkflowRunQueued',
  data: {
    id: 'wfrun_1',
    workflowId: 'wf_1',
    input: { topic: 'cron' },
    trigger: { type: 'manual' },
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};
const { id, workflowId, input, trigger, createdAt } = queued.data;
const steps = [
  { agent: 'researcher', action: 'Research {{input.topic}}' },
  { agent: 'writer', action: 'Write up: {{steps.0.output}}' },
];
const started: WorkflowRunStarted = {
  type: 'WorkflowRunStarted',
  data: { runId: 'wfrun_1', workflowName: 'digest', workflowVersion: 2, steps, startedAt: at },
};
const step0: WorkflowStepStarted = {
  type: 'WorkflowStepStarted',
  data: {
    runId: 'wfrun_1',
    index: 0,
    agent: 'researcher',
    task: 'Research cron',
    agentRunId: 'agentrun_a',
    startedAt: at,
  },
};
const step0Succeeded: WorkflowRunEvent = {
  type: 'WorkflowStepEnded',
  data: { runId: 'wfrun_1', index: 0, status: 'succeeded', output: 'notes', endedAt: at },
};

describe('workflow run decider', () => {
  it('queues a run, and a repeat of it is a no-op', () => {
    given(workflowRunDecider, [])
      .when({ type: 'QueueWorkflowRun', id, workflowId, input, trigger, createdAt })
      .then([queued]);
    given(workflowRunDecider, [queued])
      .when({ type: 'QueueWorkflowRun', id, workflowId, input, trigger, createdAt })
      .then([]);
  });

  it('starts with its first step, its task filled in from the input', () => {
    given(workflowRunDecider, [queued])
      .when(
        {
          type: 'StartWorkflowRun',
          workflowName: 'digest',
          workflowVersion: 2,
          steps,
          newRunId: () => 'agentrun_a',
        },
        now,
      )
      .then([started, step0]);
    given(workflowRunDecider, [queued, started, step0])
      .when({
        type: 'StartWorkflowRun',
        workflowName: 'digest',
        workflowVersion: 2,
        steps,
        newRunId: () => 'agentrun_b',
      })
      .then([]);
  });

  it('passes a step output on to the next step', () => {
    given(workflowRunDecider, [queued, started, step0])
      .when(
        {
          type: 'EndWorkflowStep',
          index: 0,
          agentRunId: 'agentrun_a',
          outcome: { output: 'notes' },
          newRunId: () => 'agentrun_b',
        },
        now,
      )
      .then([
        step0Succeeded,
        {
          type: 'WorkflowStepStarted',
          data: {
            runId: 'wfrun_1',
            index: 1,
            agent: 'writer',
            task: 'Write up: notes',
            agentRunId: 'agentrun_b',
            startedAt: at,
          },
        },
      ]);
  });

  it('succeeds with the last step output', () => {
    const step1: WorkflowRunEvent = {
      ...step0,
      data: { ...step0.data, index: 1, agent: 'writer', agentRunId: 'agentrun_b' },
    };
    given(workflowRunDecider, [queued, started, step0, step0Succeeded, step1])
      .when(
        {
          type: 'EndWorkflowStep',
          index: 1,
          agentRunId: 'agentrun_b',
          outcome: { output: 'report' },
          newRunId: () => 'x',
        },
        now,
      )
      .then([
        {
          type: 'WorkflowStepEnded',
          data: { runId: 'wfrun_1', index: 1, status: 'succeeded', output: 'report', endedAt: at },
        },
        { type: 'WorkflowRunSucceeded', data: { runId: 'wfrun_1', output: 'report', endedAt: at } },
      ]);
  });

  it('fails when a step fails, and skips the later steps', () => {
    const error = { code: 'provider_error', message: 'boom', status: 500 };
    const history = [queued, started, step0];
    given(workflowRunDecider, history)
      .when(
        { type: 'EndWorkflowStep', index: 0, agentRunId: 'agentrun_a', outcome: { error }, newRunId: () => 'x' },
        now,
      )
      .then([
        { type: 'WorkflowStepEnded', data: { runId: 'wfrun_1', index: 0, status: 'failed', error, endedAt: at } },
        {
          type: 'WorkflowRunFailed',
          data: {
            runId: 'wfrun_1',
            error: { code: 'step_failed', message: 'Step 0 (agent "researcher") failed: boom' },
            endedAt: at,
          },
        },
      ]);
    const failed: WorkflowRunEvent[] = [
      { type: 'WorkflowStepEnded', data: { runId: 'wfrun_1', index: 0, status: 'failed', error, endedAt: at } },
      {
        type: 'WorkflowRunFailed',
        data: { runId: 'wfrun_1', error: { code: 'step_failed', message: 'x' }, endedAt: at },
      },
    ];
    const state = [...history, ...failed].reduce(workflowRunDecider.evolve, null);
    expect(state?.status).toBe('failed');
    expect(state?.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('ignores the end of an agent run that is not its current step', () => {
    given(workflowRunDecider, [queued, started, step0])
      .when({
        type: 'EndWorkflowStep',
        index: 0,
        agentRunId: 'agentrun_other',
        outcome: { output: 'x' },
        newRunId: () => 'y',
      })
      .then([]);
  });

  it('is cancelled at once with its step in progress; cancelling again changes nothing; an ended run is a conflict', () => {
    const cancelled: WorkflowRunEvent = { type: 'WorkflowRunCancelled', data: { runId: 'wfrun_1', endedAt: at } };
    given(workflowRunDecider, [queued, started, step0]).when({ type: 'CancelWorkflowRun' }, now).then([cancelled]);
    given(workflowRunDecider, [queued, started, step0, cancelled]).when({ type: 'CancelWorkflowRun' }).then([]);
    const state = [queued, started, step0, cancelled].reduce(workflowRunDecider.evolve, null);
    expect(state?.steps.map((s) => s.status)).toEqual(['cancelled', 'skipped']);
    const succeeded: WorkflowRunEvent = {
      type: 'WorkflowRunSucceeded',
      data: { runId: 'wfrun_1', output: 'x', endedAt: at },
    };
    given(workflowRunDecider, [queued, succeeded]).when({ type: 'CancelWorkflowRun' }).thenRefuses('conflict');
  });

  it('gives a step only its task unless it asks for context: the input, the earlier outputs, or all with the workflow', () => {
    const withContext = (context?: 'input' | 'steps' | 'all') => {
      const chosen = { ...started, data: { ...started.data, steps: [steps[0], { ...steps[1], context }] } };
      return [queued, chosen, step0, step0Succeeded].reduce(workflowRunDecider.evolve, null)!;
    };
    expect(stepContext(withContext(undefined), 1)).toEqual({});
    expect(stepContext(withContext('input'), 1)).toEqual({ input: { topic: 'cron' } });
    const earlier = [{ index: 0, agent: 'researcher', output: 'notes' }];
    expect(stepContext(withContext('steps'), 1)).toEqual({ steps: earlier });
    expect(stepContext(withContext('all'), 1)).toEqual({
      workflow: { id: 'wf_1', name: 'digest', runId: 'wfrun_1' },
      input: { topic: 'cron' },
      steps: earlier,
    });
  });

  it('records the task a step was sent', () => {
    const state = [queued, started, step0].reduce(workflowRunDecider.evolve, null)!;
    expect(state.steps.map((step) => step.task)).toEqual(['Research cron', null]);
  });

  it("keeps an experiment's trial, and names the experiment on each way the run can end", () => {
    const trial = { overrides: { outputStep: '0' }, recordedFrom: 'wfrun_source' };
    const tried = { ...queued, data: { ...queued.data, experimentId: 'experiment_1', trial } };
    given(workflowRunDecider, [])
      .when({
        type: 'QueueWorkflowRun',
        id,
        workflowId,
        input,
        trigger,
        createdAt,
        experimentId: 'experiment_1',
        trial,
      })
      .then([tried]);
    const state = [tried, started].reduce(workflowRunDecider.evolve, null)!;
    expect(state).toMatchObject({ experimentId: 'experiment_1', trial });
    const ended = { runId: 'wfrun_1', experimentId: 'experiment_1', endedAt: at };
    given(workflowRunDecider, [tried, started, step0])
      .when({ type: 'CancelWorkflowRun' }, now)
      .then([{ type: 'WorkflowRunCancelled', data: ended }]);
    const failure = { index: 0, agentRunId: 'agentrun_a', outcome: { error: { code: 'x', message: 'no' } } };
    const failed = workflowRunDecider.decide(
      [tried, started, step0].reduce(workflowRunDecider.evolve, null),
      { type: 'EndWorkflowStep', ...failure, newRunId: () => 'agentrun_b' },
      now,
    );
    expect(failed.map((event) => event.type)).toEqual(['WorkflowStepEnded', 'WorkflowRunFailed']);
    expect(failed[0].data).not.toHaveProperty('experimentId');
    expect(failed[1].data).toMatchObject({ experimentId: 'experiment_1' });
    // A run of no experiment ends as before.
    given(workflowRunDecider, [queued, started, step0])
      .when({ type: 'CancelWorkflowRun' }, now)
      .then([{ type: 'WorkflowRunCancelled', data: { runId: 'wfrun_1', endedAt: at } }]);
  });
});
