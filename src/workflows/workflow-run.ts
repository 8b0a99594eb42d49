import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';
import { RunError, RunStatus, isEnded } from '../domain/run';
import { renderStepTask } from './step-task';
import { RunTrigger, StepContextOption, WorkflowStep, WorkflowTriggered, isApprovalStep } from './workflow';

export type StepStatus = 'pending' | RunStatus | 'skipped';

export interface WorkflowRunStep {
  index: number;
  /** An agent step's agent and action; null for an approval step. */
  agent: string | null;
  action: string | null;
  /** An approval step: the text shown to the approver, and how long it may wait. */
  approval?: string;
  timeoutMs?: number;
  /** What the step's agent run gets besides its task; absent: nothing. */
  context?: StepContextOption;
  /** The task sent to the step's agent: its action with the placeholders filled in; null until it starts. */
  task: string | null;
  status: StepStatus;
  agentRunId: string | null;
  output: string | null;
  /** The step's structured answer, when its agent run had an `outputSchema`. */
  outputObject?: unknown;
  error: RunError | null;
  startedAt: string | null;
  endedAt: string | null;
}

export interface WorkflowRun {
  id: string;
  workflowId: string;
  status: RunStatus;
  input: Record<string, unknown>;
  trigger: RunTrigger;
  /**
   * The workflow's version when the run was queued, then the version whose steps it runs once it has started;
   * null for runs recorded before versions.
   */
  workflowVersion: number | null;
  /** The workflow's steps as they were when the run started; empty while it is queued. */
  steps: WorkflowRunStep[];
  /** The last step's output. */
  output: string | null;
  error: RunError | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface WorkflowRunAggregate extends WorkflowRun {
  workflowName: string;
}

export type WorkflowRunState = WorkflowRunAggregate | null;

/** How a step's agent run ended. */
export type StepOutcome = { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true };

export type QueueWorkflowRun = { type: 'QueueWorkflowRun' } & Pick<
  WorkflowRun,
  'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'
> & { workflowVersion?: number };
export type StartWorkflowRun = {
  type: 'StartWorkflowRun';
  workflowName: string;
  workflowVersion: number;
  steps: WorkflowStep[];
  firstAgentRunId: string;
};
export type EndWorkflowStep = {
  type: 'EndWorkflowStep';
  index: number;
  agentRunId: string;
  outcome: StepOutcome;
  /** The id the next step's agent run gets, if there is a next step. */
  nextAgentRunId: string;
};
export type CancelWorkflowRun = { type: 'CancelWorkflowRun' };
/** A person's decision at the approval step the run waits at: approve goes on (`data` is the step's output). */
export type DecideWorkflowApproval = {
  type: 'DecideWorkflowApproval';
  decision: 'approve' | 'reject';
  reason?: string;
  data?: Record<string, unknown>;
  /** The id the next step's agent run gets, if there is a next step. */
  nextAgentRunId: string;
};
/** Fails a run that has waited at an approval step past its `timeoutMs`. */
export type ExpireWorkflowApproval = { type: 'ExpireWorkflowApproval' };
export type WorkflowRunCommand =
  | QueueWorkflowRun
  | StartWorkflowRun
  | EndWorkflowStep
  | CancelWorkflowRun
  | DecideWorkflowApproval
  | ExpireWorkflowApproval;

type RunEnded = { runId: string; endedAt: string };
/** `workflowVersion` is absent from runs recorded before versions. */
export type WorkflowRunQueued = DomainEvent<
  'WorkflowRunQueued',
  Pick<WorkflowRun, 'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'> & { workflowVersion?: number }
>;
export type WorkflowRunStarted = DomainEvent<
  'WorkflowRunStarted',
  { runId: string; workflowName: string; workflowVersion?: number; steps: WorkflowStep[]; startedAt: string }
>;
export type WorkflowStepStarted = DomainEvent<
  'WorkflowStepStarted',
  { runId: string; index: number; agent: string; task: string; agentRunId: string; startedAt: string }
>;
/** The run reached an approval step: it waits for a person (POST …/approvals). */
export type WorkflowApprovalRequested = DomainEvent<
  'WorkflowApprovalRequested',
  { runId: string; index: number; approval: string; timeoutMs?: number; requestedAt: string }
>;
export type WorkflowStepEnded = DomainEvent<
  'WorkflowStepEnded',
  {
    runId: string;
    index: number;
    status: 'succeeded' | 'failed' | 'cancelled';
    output?: string;
    outputObject?: unknown;
    error?: RunError;
    endedAt: string;
  }
>;
export type WorkflowRunSucceeded = DomainEvent<'WorkflowRunSucceeded', RunEnded & { output: string | null }>;
export type WorkflowRunFailed = DomainEvent<'WorkflowRunFailed', RunEnded & { error: RunError }>;
export type WorkflowRunCancelled = DomainEvent<'WorkflowRunCancelled', RunEnded>;
export type WorkflowRunEvent =
  | WorkflowRunQueued
  | WorkflowRunStarted
  | WorkflowStepStarted
  | WorkflowApprovalRequested
  | WorkflowStepEnded
  | WorkflowRunSucceeded
  | WorkflowRunFailed
  | WorkflowRunCancelled;

export const WORKFLOW_RUN_EVENT_TYPES = eventTypes<WorkflowRunEvent>({
  WorkflowRunQueued: true,
  WorkflowRunStarted: true,
  WorkflowStepStarted: true,
  WorkflowApprovalRequested: true,
  WorkflowStepEnded: true,
  WorkflowRunSucceeded: true,
  WorkflowRunFailed: true,
  WorkflowRunCancelled: true,
});

export const WORKFLOW_RUN_ENDINGS = ['WorkflowRunSucceeded', 'WorkflowRunFailed', 'WorkflowRunCancelled'] as const;

export const workflowRunStream = (runId: string) => `workflowrun-${runId}`;

/** A run as its trigger records it: what its stream's opening command and its WorkflowRunQueued event carry. */
export type QueuedRun = WorkflowRunQueued['data'];

/** The run a trigger makes (the trigger alone records it; its stream is opened with it, or after it). */
export function queuedRunOf(triggered: WorkflowTriggered['data']): QueuedRun {
  const { runId, workflowId, input, trigger, workflowVersion, triggeredAt } = triggered;
  return { id: runId, workflowId, input, trigger, workflowVersion, createdAt: triggeredAt };
}

/** The same, from the run as it stands while its stream is not opened yet (as the read models list it). */
export function queuedRunFrom({ id, workflowId, input, trigger, workflowVersion, createdAt }: WorkflowRun): QueuedRun {
  return { id, workflowId, input, trigger, ...(workflowVersion !== null && { workflowVersion }), createdAt };
}

export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: null,
  // A run's stream is used a few times within moments, then never again.
  cacheActors: false,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'QueueWorkflowRun') {
      // The run is created from the workflow's WorkflowTriggered event; a repeat of the same run is a no-op.
      if (state) {
        if (state.workflowId === command.workflowId) return [];
        throw new DomainError('conflict', `Workflow run ${command.id} already exists`);
      }
      const { type: _type, ...run } = command;
      return [{ type: 'WorkflowRunQueued', data: run }];
    }
    if (!state) throw new DomainError('not_found', 'The workflow run does not exist');
    const runId = state.id;
    switch (command.type) {
      case 'StartWorkflowRun': {
        if (state.status !== 'queued') return [];
        const { workflowName, workflowVersion, steps } = command;
        const started: WorkflowRunStarted = {
          type: 'WorkflowRunStarted',
          data: { runId, workflowName, workflowVersion, steps, startedAt: at },
        };
        const run = workflowRunDecider.evolve(state, started)!;
        return [started, startStep(run, 0, command.firstAgentRunId, at)];
      }
      case 'EndWorkflowStep': {
        const step = state.steps[command.index];
        // Repeats, and agent runs that end after their workflow run did, change nothing.
        if (state.status !== 'running' || step?.status !== 'running' || step.agentRunId !== command.agentRunId)
          return [];
        return endStep(state, command, at);
      }
      case 'DecideWorkflowApproval': {
        const index = state.steps.findIndex((step) => step.status === 'waiting');
        if (state.status !== 'waiting' || index < 0) {
          throw new DomainError('conflict', `Workflow run ${runId} is ${state.status}, not waiting`, [], 'not-waiting');
        }
        return decideApproval(state, index, command, at);
      }
      case 'ExpireWorkflowApproval': {
        const step = state.steps.find((s) => s.status === 'waiting');
        if (state.status !== 'waiting' || !step?.timeoutMs || !step.startedAt) return [];
        if (Date.parse(step.startedAt) + step.timeoutMs > now.getTime()) return [];
        const error = {
          code: 'approval_timeout',
          message: `No decision at step ${step.index} within ${step.timeoutMs} ms`,
        };
        return [
          { type: 'WorkflowStepEnded', data: { runId, index: step.index, status: 'failed', error, endedAt: at } },
          { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
        ];
      }
      case 'CancelWorkflowRun':
        if (state.status === 'cancelled') return [];
        if (isEnded(state.status))
          throw new DomainError('conflict', `Workflow run ${runId} has already ${state.status}`);
        return [{ type: 'WorkflowRunCancelled', data: { runId, endedAt: at } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'WorkflowRunQueued') {
      const { id, workflowId, input, trigger, createdAt, workflowVersion } = event.data;
      return {
        id,
        workflowId,
        workflowName: '',
        status: 'queued',
        input,
        trigger,
        workflowVersion: workflowVersion ?? null,
        steps: [],
        output: null,
        error: null,
        createdAt,
        startedAt: null,
        endedAt: null,
      };
    }
    if (!state) return state;
    switch (event.type) {
      case 'WorkflowRunStarted': {
        const { workflowName, steps, startedAt } = event.data;
        const workflowVersion = event.data.workflowVersion ?? state.workflowVersion;
        return { ...state, status: 'running', workflowName, workflowVersion, startedAt, steps: steps.map(pendingStep) };
      }
      case 'WorkflowStepStarted': {
        const { index, agentRunId, startedAt, task } = event.data;
        return updateStep(state, index, { status: 'running', agentRunId, startedAt, task });
      }
      case 'WorkflowApprovalRequested': {
        const { index, requestedAt } = event.data;
        return { ...updateStep(state, index, { status: 'waiting', startedAt: requestedAt }), status: 'waiting' };
      }
      case 'WorkflowStepEnded': {
        const { index, status, output, outputObject, error, endedAt } = event.data;
        const answer = { output: output ?? null, ...(outputObject !== undefined && { outputObject }) };
        const stepped = updateStep(state, index, { status, ...answer, error: error ?? null, endedAt });
        // A decision at an approval step lets the run go on.
        return state.status === 'waiting' ? { ...stepped, status: 'running' } : stepped;
      }
      case 'WorkflowRunSucceeded':
        return { ...finish(state, 'succeeded', event.data.endedAt), output: event.data.output };
      case 'WorkflowRunFailed':
        return { ...finish(state, 'failed', event.data.endedAt), error: event.data.error };
      case 'WorkflowRunCancelled':
        return finish(state, 'cancelled', event.data.endedAt);
      default:
        return state;
    }
  },
};

function startStep(
  run: WorkflowRunAggregate,
  index: number,
  agentRunId: string,
  at: string,
): WorkflowStepStarted | WorkflowApprovalRequested {
  const step = run.steps[index];
  if (step.approval !== undefined) {
    const { approval, timeoutMs } = step;
    const data = { runId: run.id, index, approval, ...(timeoutMs !== undefined && { timeoutMs }), requestedAt: at };
    return { type: 'WorkflowApprovalRequested', data };
  }
  const task = renderStepTask(step.action!, {
    input: run.input,
    outputs: run.steps.map((s) => s.output),
    objects: run.steps.map((s) => s.outputObject),
  });
  return {
    type: 'WorkflowStepStarted',
    data: { runId: run.id, index, agent: step.agent!, task, agentRunId, startedAt: at },
  };
}

/** Approved: the step's output is `data` (as JSON) or the reason, and the run goes on; rejected: the run fails. */
function decideApproval(
  state: WorkflowRunAggregate,
  index: number,
  command: DecideWorkflowApproval,
  at: string,
): WorkflowRunEvent[] {
  const runId = state.id;
  if (command.decision === 'approve') {
    const { data, reason } = command;
    const outcome = data ? { output: JSON.stringify(data), outputObject: data } : { output: reason ?? 'approved' };
    const running = { ...state, status: 'running' as const };
    return endStep(
      running,
      { type: 'EndWorkflowStep', index, agentRunId: '', outcome, nextAgentRunId: command.nextAgentRunId },
      at,
    );
  }
  const error = {
    code: 'rejected',
    message: `Step ${index} was rejected${command.reason ? `: ${command.reason}` : ''}`,
  };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}

function endStep(state: WorkflowRunAggregate, command: EndWorkflowStep, at: string): WorkflowRunEvent[] {
  const { index, outcome } = command;
  const runId = state.id;
  const step = state.steps[index];
  if ('output' in outcome) {
    const ended: WorkflowStepEnded = {
      type: 'WorkflowStepEnded',
      data: {
        runId,
        index,
        status: 'succeeded',
        output: outcome.output,
        ...(outcome.outputObject !== undefined && { outputObject: outcome.outputObject }),
        endedAt: at,
      },
    };
    const next = index + 1;
    if (next === state.steps.length) {
      return [ended, { type: 'WorkflowRunSucceeded', data: { runId, output: outcome.output, endedAt: at } }];
    }
    return [ended, startStep(workflowRunDecider.evolve(state, ended)!, next, command.nextAgentRunId, at)];
  }
  if ('cancelled' in outcome) {
    return [
      { type: 'WorkflowStepEnded', data: { runId, index, status: 'cancelled', endedAt: at } },
      { type: 'WorkflowRunCancelled', data: { runId, endedAt: at } },
    ];
  }
  const error = {
    code: 'step_failed',
    message: `Step ${index} (agent "${step.agent}") failed: ${outcome.error.message}`,
  };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error: outcome.error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}

function pendingStep(step: WorkflowStep, index: number): WorkflowRunStep {
  const kind = isApprovalStep(step)
    ? {
        agent: null,
        action: null,
        approval: step.approval,
        ...(step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs }),
      }
    : { agent: step.agent, action: step.action, ...(step.context && { context: step.context }) };
  return {
    index,
    ...kind,
    task: null,
    status: 'pending',
    agentRunId: null,
    output: null,
    error: null,
    startedAt: null,
    endedAt: null,
  };
}

function updateStep(
  state: WorkflowRunAggregate,
  index: number,
  change: Partial<WorkflowRunStep>,
): WorkflowRunAggregate {
  return { ...state, steps: state.steps.map((step) => (step.index === index ? { ...step, ...change } : step)) };
}

/** The run ends: a step still running is cancelled with it, and the steps never reached are skipped. */
function finish(state: WorkflowRunAggregate, status: RunStatus, endedAt: string): WorkflowRunAggregate {
  const steps = state.steps.map((step): WorkflowRunStep => {
    if (step.status === 'pending') return { ...step, status: 'skipped' };
    if (step.status === 'running' || step.status === 'waiting') return { ...step, status: 'cancelled', endedAt };
    return step;
  });
  return { ...state, status, steps, endedAt };
}

/**
 * The context a step's agent run gets beside its task, as the step chose: none by default, since the task already
 * holds what its action names (sending every earlier output again made prompts grow with each step); the run's
 * input, the earlier steps' outputs, or all of it with the workflow.
 */
export function stepContext(run: WorkflowRunAggregate, index: number): Record<string, unknown> {
  const option = run.steps[index]?.context;
  if (!option) return {};
  const input = { input: run.input };
  const steps = {
    steps: run.steps.slice(0, index).map(({ index: i, agent, output }) => ({ index: i, agent, output })),
  };
  if (option === 'input') return input;
  if (option === 'steps') return steps;
  return { workflow: { id: run.workflowId, name: run.workflowName, runId: run.id }, ...input, ...steps };
}

export function toWorkflowRun({ workflowName: _name, ...run }: WorkflowRunAggregate): WorkflowRun {
  // Runs recorded before steps kept their task have none.
  return { ...run, steps: run.steps.map((step) => ({ ...step, task: step.task ?? null })) };
}
