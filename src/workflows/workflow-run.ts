import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';
import { RunError, RunStatus, isEnded } from '../domain/run';
import { ConditionScope, StepCondition, conditionVerdict } from './step-condition';
import { needsOf, stepIdOf, stepIndexOf } from './step-graph';
import { MAX_TASK_LENGTH, renderStepTask } from './step-task';
import { CONDITION_BUDGET_STEPS } from './condition-budget';
import { isoTime } from '../shared/clock';
import {
  ReplayOf,
  RunTrigger,
  StepContextOption,
  StepRetry,
  WorkflowStep,
  WorkflowTriggered,
  isApprovalStep,
} from './workflow';

export type StepStatus = 'pending' | RunStatus | 'skipped';

/** One attempt of an agent step: an agent run of its own. */
export interface StepAttempt {
  runId: string;
  status: RunStatus;
  error: RunError | null;
}

export interface WorkflowRunStep {
  index: number;
  /** The step's id (its position when the workflow names none), and the ids of the steps it waits for. */
  id: string;
  needs: string[];
  when?: StepCondition;
  retry?: StepRetry;
  /** An agent step's attempts, each an agent run, in order. */
  attempts?: StepAttempt[];
  /** A replay took this step's output from the run it replays, without running it. */
  reused?: boolean;
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
  /** The output of the last step by position among those that ran. */
  output: string | null;
  /** Present on a replay. */
  replayOf?: ReplayOf;
  error: RunError | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface WorkflowRunAggregate extends WorkflowRun {
  workflowName: string;
  outputStep?: string;
}

export type WorkflowRunState = WorkflowRunAggregate | null;

/** How a step's agent run ended. */
export type StepOutcome = { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true };

/** Gives the id of an agent run the decision starts (a step, or a retry); called once per run started. */
export type NewAgentRunId = () => string;

export type QueueWorkflowRun = { type: 'QueueWorkflowRun' } & Pick<
  WorkflowRun,
  'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'
> & { workflowVersion?: number; replayOf?: ReplayOf };
/** A step a replay takes from the run it replays. */
export interface ReusedStep {
  index: number;
  output: string;
  outputObject?: unknown;
}
export type StartWorkflowRun = {
  type: 'StartWorkflowRun';
  workflowName: string;
  workflowVersion: number;
  steps: WorkflowStep[];
  outputStep?: string;
  newAgentRunId: NewAgentRunId;
  /** A replay: the steps it takes from the run it replays. */
  reuse?: ReusedStep[];
};
export type EndWorkflowStep = {
  type: 'EndWorkflowStep';
  index: number;
  agentRunId: string;
  outcome: StepOutcome;
  newAgentRunId: NewAgentRunId;
};
/** Several steps' agent runs ended (as the log had them, in order): one decision, one append. */
export type EndWorkflowSteps = {
  type: 'EndWorkflowSteps';
  ends: Array<Pick<EndWorkflowStep, 'index' | 'agentRunId' | 'outcome'>>;
  newAgentRunId: NewAgentRunId;
};
/** Fails a step whose attempts have taken longer than its `timeoutMs`. */
export type ExpireWorkflowStep = { type: 'ExpireWorkflowStep'; index: number };
export type CancelWorkflowRun = { type: 'CancelWorkflowRun' };
/** A person's decision at the approval step the run waits at: approve goes on (`data` is the step's output). */
export type DecideWorkflowApproval = {
  type: 'DecideWorkflowApproval';
  decision: 'approve' | 'reject';
  reason?: string;
  data?: Record<string, unknown>;
  newAgentRunId: NewAgentRunId;
};
/** Fails a run that has waited at an approval step past its `timeoutMs`. */
export type ExpireWorkflowApproval = { type: 'ExpireWorkflowApproval' };
export type WorkflowRunCommand =
  | QueueWorkflowRun
  | StartWorkflowRun
  | EndWorkflowStep
  | EndWorkflowSteps
  | CancelWorkflowRun
  | DecideWorkflowApproval
  | ExpireWorkflowApproval
  | ExpireWorkflowStep;

type RunEnded = { runId: string; endedAt: string };
/** `workflowVersion` is absent from runs recorded before versions. */
export type WorkflowRunQueued = DomainEvent<
  'WorkflowRunQueued',
  Pick<WorkflowRun, 'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'> & {
    workflowVersion?: number;
    replayOf?: ReplayOf;
  }
>;
export type WorkflowRunStarted = DomainEvent<
  'WorkflowRunStarted',
  {
    runId: string;
    workflowName: string;
    workflowVersion?: number;
    steps: WorkflowStep[];
    /** The step whose output is the run's, when the workflow names one. */
    outputStep?: string;
    startedAt: string;
  }
>;
export type WorkflowStepStarted = DomainEvent<
  'WorkflowStepStarted',
  { runId: string; index: number; agent: string; task: string; agentRunId: string; startedAt: string }
>;
/** A replay took a step's output from the run it replays (`fromRunId`), with no model call. */
export type WorkflowStepReused = DomainEvent<
  'WorkflowStepReused',
  { runId: string; index: number; fromRunId: string; output: string; outputObject?: unknown; reusedAt: string }
>;
/** A step not run: its `when` was false, or every step it needs was skipped. */
export type WorkflowStepSkipped = DomainEvent<
  'WorkflowStepSkipped',
  { runId: string; index: number; reason: 'condition_false' | 'needs_skipped'; skippedAt: string }
>;
/** An attempt of a step failed and it has attempts left: `nextAgentRunId` is queued at `retryAt`. */
export type WorkflowStepRetrying = DomainEvent<
  'WorkflowStepRetrying',
  { runId: string; index: number; agentRunId: string; error: RunError; nextAgentRunId: string; retryAt: string }
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
  | WorkflowStepReused
  | WorkflowStepSkipped
  | WorkflowStepRetrying
  | WorkflowApprovalRequested
  | WorkflowStepEnded
  | WorkflowRunSucceeded
  | WorkflowRunFailed
  | WorkflowRunCancelled;

export const WORKFLOW_RUN_EVENT_TYPES = eventTypes<WorkflowRunEvent>({
  WorkflowRunQueued: true,
  WorkflowRunStarted: true,
  WorkflowStepStarted: true,
  WorkflowStepReused: true,
  WorkflowStepSkipped: true,
  WorkflowStepRetrying: true,
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
  const { runId, workflowId, input, trigger, workflowVersion, triggeredAt, replayOf } = triggered;
  return {
    id: runId,
    workflowId,
    input,
    trigger,
    workflowVersion,
    createdAt: triggeredAt,
    ...(replayOf && { replayOf }),
  };
}

/** The same, from the run as it stands while its stream is not opened yet (as the read models list it). */
export function queuedRunFrom(run: WorkflowRun): QueuedRun {
  const { id, workflowId, input, trigger, workflowVersion, createdAt, replayOf } = run;
  return {
    id,
    workflowId,
    input,
    trigger,
    ...(workflowVersion !== null && { workflowVersion }),
    createdAt,
    ...(replayOf && { replayOf }),
  };
}

export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: null,
  // A run's stream is used a few times within moments, then never again.
  cacheActors: false,

  decide(state, command, now) {
    const at = isoTime(now);
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
        const { workflowName, workflowVersion, steps, outputStep } = command;
        const output = outputStep !== undefined && { outputStep };
        const started: WorkflowRunStarted = {
          type: 'WorkflowRunStarted',
          data: { runId, workflowName, workflowVersion, steps, ...output, startedAt: at },
        };
        const fromRunId = state.replayOf?.runId ?? '';
        const reused = (command.reuse ?? []).map(({ index, output, outputObject }): WorkflowStepReused => ({
          type: 'WorkflowStepReused',
          data: { runId, index, fromRunId, output, ...(outputObject !== undefined && { outputObject }), reusedAt: at },
        }));
        return advance(state, [started, ...reused], command.newAgentRunId, at);
      }
      case 'EndWorkflowStep': {
        const step = state.steps[command.index];
        // Repeats, and agent runs that end after their workflow run did, change nothing.
        if (isEnded(state.status) || step?.status !== 'running' || step.agentRunId !== command.agentRunId) return [];
        return endStep(state, command, now);
      }
      case 'EndWorkflowSteps': {
        let current: WorkflowRunState = state;
        const out: WorkflowRunEvent[] = [];
        for (const end of command.ends) {
          const step: EndWorkflowStep = { type: 'EndWorkflowStep', ...end, newAgentRunId: command.newAgentRunId };
          const events = workflowRunDecider.decide(current, step, now);
          out.push(...events);
          current = events.reduce(workflowRunDecider.evolve, current);
        }
        return out;
      }
      case 'ExpireWorkflowStep': {
        const step = state.steps[command.index];
        if (isEnded(state.status) || step?.status !== 'running' || !step.timeoutMs || !step.startedAt) return [];
        if (Date.parse(step.startedAt) + step.timeoutMs > now.getTime()) return [];
        const error = { code: 'step_timeout', message: `Step "${step.id}" took longer than ${step.timeoutMs} ms` };
        return [
          { type: 'WorkflowStepEnded', data: { runId, index: step.index, status: 'failed', error, endedAt: at } },
          { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
        ];
      }
      case 'DecideWorkflowApproval': {
        const index = state.steps.findIndex((step) => step.status === 'waiting');
        if (state.status !== 'waiting' || index < 0) {
          throw new DomainError('conflict', `Workflow run ${runId} is ${state.status}, not waiting`, [], 'not-waiting');
        }
        return decideApproval(state, index, command, now);
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
      const { id, workflowId, input, trigger, createdAt, workflowVersion, replayOf } = event.data;
      return {
        ...(replayOf && { replayOf }),
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
        const { workflowName, steps, startedAt, outputStep } = event.data;
        const workflowVersion = event.data.workflowVersion ?? state.workflowVersion;
        const output = outputStep !== undefined && { outputStep };
        return {
          ...state,
          status: 'running',
          workflowName,
          workflowVersion,
          startedAt,
          steps: pendingSteps(steps),
          ...output,
        };
      }
      case 'WorkflowStepStarted': {
        const { index, agentRunId, startedAt, task } = event.data;
        const attempts = [{ runId: agentRunId, status: 'running' as const, error: null }];
        return updateStep(state, index, { status: 'running', agentRunId, startedAt, task, attempts });
      }
      case 'WorkflowStepReused': {
        const { index, output, outputObject, reusedAt } = event.data;
        const answer = { output, ...(outputObject !== undefined && { outputObject }) };
        const change = {
          status: 'succeeded' as const,
          reused: true,
          ...answer,
          startedAt: reusedAt,
          endedAt: reusedAt,
        };
        return updateStep(state, index, change);
      }
      case 'WorkflowStepSkipped':
        return updateStep(state, event.data.index, { status: 'skipped', endedAt: event.data.skippedAt });
      case 'WorkflowStepRetrying': {
        const { index, error, nextAgentRunId } = event.data;
        const step = state.steps.find((s) => s.index === index);
        const attempts = [
          ...endAttempt(step?.attempts, 'failed', error),
          { runId: nextAgentRunId, status: 'queued' as const, error: null },
        ];
        return updateStep(state, index, { agentRunId: nextAgentRunId, attempts });
      }
      case 'WorkflowApprovalRequested': {
        const { index, requestedAt } = event.data;
        return updateStep(state, index, { status: 'waiting', startedAt: requestedAt });
      }
      case 'WorkflowStepEnded': {
        const { index, status, output, outputObject, error, endedAt } = event.data;
        const answer = { output: output ?? null, ...(outputObject !== undefined && { outputObject }) };
        const step = state.steps.find((s) => s.index === index);
        const attempts = step?.attempts && { attempts: endAttempt(step.attempts, status, error ?? null) };
        return updateStep(state, index, { status, ...answer, error: error ?? null, endedAt, ...attempts });
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

/** Errors no retry can fix: a provider not set up, an answer still invalid after its repair, a missing agent. */
const NOT_RETRIED = new Set(['provider_not_configured', 'output_invalid', 'agent_not_found', 'rejected']);

/** The wait before retry `n` (1 for the first): `backoffMs` doubled each time, up to `maxBackoffMs`. */
export function retryDelayMs({ backoffMs, maxBackoffMs }: StepRetry, n: number): number {
  const delay = backoffMs * 2 ** (n - 1);
  return maxBackoffMs === undefined ? delay : Math.min(delay, maxBackoffMs);
}

const isDone = (step: WorkflowRunStep) => step.status === 'succeeded' || step.status === 'skipped';

/** What a step's action and condition read: the input, and the ended steps by id and by position. */
function scopeOf(run: WorkflowRunAggregate): ConditionScope {
  const steps: ConditionScope['steps'] = {};
  for (const step of run.steps) {
    if (step.status !== 'succeeded') continue;
    const answer = { output: step.output, ...(step.outputObject !== undefined && { outputObject: step.outputObject }) };
    steps[String(step.index)] = answer;
    steps[step.id] = answer;
  }
  return { input: run.input, steps };
}

/**
 * After `events`, starts every pending step whose needs have all ended (in order of position), skipping those
 * whose condition is false or whose needs were all skipped, until nothing more can start; a run with nothing
 * left to run succeeds.
 */
function advance(
  state: WorkflowRunAggregate,
  events: WorkflowRunEvent[],
  newAgentRunId: NewAgentRunId,
  at: string,
): WorkflowRunEvent[] {
  let run = events.reduce((current, event) => workflowRunDecider.evolve(current, event)!, state);
  const out = [...events];
  const apply = (event: WorkflowRunEvent) => {
    out.push(event);
    run = workflowRunDecider.evolve(run, event)!;
  };
  for (let moved = true; moved;) {
    moved = false;
    for (const step of run.steps) {
      if (step.status !== 'pending') continue;
      const needs = step.needs.map((id) => run.steps[stepIndexOf(run.steps, id)!]);
      if (!needs.every(isDone)) continue;
      moved = true;
      const index = step.index;
      const needsSkipped = needs.length > 0 && needs.every((need) => need.status === 'skipped');
      const verdict = needsSkipped || step.when === undefined || conditionVerdict(step.when, scopeOf(run));
      if (needsSkipped) {
        apply({ type: 'WorkflowStepSkipped', data: { runId: run.id, index, reason: 'needs_skipped', skippedAt: at } });
      } else if (verdict === 'over_budget') {
        const budget = CONDITION_BUDGET_STEPS.toLocaleString('en-US');
        const message = `The condition of step "${step.id}" took more than its budget of ${budget} evaluation steps`;
        return [...out, ...stepFailed(run.id, index, { code: 'condition_budget_exceeded', message }, at)];
      } else if (!verdict) {
        apply({
          type: 'WorkflowStepSkipped',
          data: { runId: run.id, index, reason: 'condition_false', skippedAt: at },
        });
      } else {
        const started = startStep(run, index, newAgentRunId, at);
        if ('code' in started) return [...out, ...stepFailed(run.id, index, started, at)];
        apply(started);
      }
    }
  }
  if (run.steps.every(isDone)) {
    const ran = run.steps.filter((step) => step.status === 'succeeded');
    const named = run.outputStep === undefined ? undefined : run.steps[stepIndexOf(run.steps, run.outputStep) ?? -1];
    const output = named ? named.output : ran.length ? ran[ran.length - 1].output : null;
    out.push({ type: 'WorkflowRunSucceeded', data: { runId: run.id, output, endedAt: at } });
  }
  return out;
}

function startStep(
  run: WorkflowRunAggregate,
  index: number,
  newAgentRunId: NewAgentRunId,
  at: string,
): WorkflowStepStarted | WorkflowApprovalRequested | RunError {
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
    indexOf: (ref) => stepIndexOf(run.steps, ref),
  });
  if (task === undefined) {
    const limit = MAX_TASK_LENGTH.toLocaleString('en-US');
    return { code: 'task_too_long', message: `Step "${step.id}": its task would be longer than ${limit} characters` };
  }
  return {
    type: 'WorkflowStepStarted',
    data: { runId: run.id, index, agent: step.agent!, task, agentRunId: newAgentRunId(), startedAt: at },
  };
}

/** A step fails before it runs (its condition or its task), and the run with it. */
function stepFailed(runId: string, index: number, error: RunError, at: string): WorkflowRunEvent[] {
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}

/** Approved: the step's output is `data` (as JSON) or the reason, and the run goes on; rejected: the run fails. */
function decideApproval(
  state: WorkflowRunAggregate,
  index: number,
  command: DecideWorkflowApproval,
  now: Date,
): WorkflowRunEvent[] {
  const runId = state.id;
  if (command.decision === 'approve') {
    const { data, reason } = command;
    const outcome = data ? { output: JSON.stringify(data), outputObject: data } : { output: reason ?? 'approved' };
    return endStep(
      state,
      { type: 'EndWorkflowStep', index, agentRunId: '', outcome, newAgentRunId: command.newAgentRunId },
      now,
    );
  }
  const error = {
    code: 'rejected',
    message: `Step ${index} was rejected${command.reason ? `: ${command.reason}` : ''}`,
  };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: now.toISOString() } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: now.toISOString() } },
  ];
}

function endStep(state: WorkflowRunAggregate, command: EndWorkflowStep, now: Date): WorkflowRunEvent[] {
  const { index, outcome } = command;
  const at = now.toISOString();
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
    return advance(state, [ended], command.newAgentRunId, at);
  }
  if ('cancelled' in outcome) {
    return [
      { type: 'WorkflowStepEnded', data: { runId, index, status: 'cancelled', endedAt: at } },
      { type: 'WorkflowRunCancelled', data: { runId, endedAt: at } },
    ];
  }
  const retry = retryOf(step, outcome.error, now);
  if (retry !== undefined) {
    const data = {
      runId,
      index,
      agentRunId: command.agentRunId,
      error: outcome.error,
      nextAgentRunId: command.newAgentRunId(),
      retryAt: new Date(now.getTime() + retry).toISOString(),
    };
    return [{ type: 'WorkflowStepRetrying', data }];
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

/** The wait before the step's next attempt, if it gets one: attempts left, an error a retry may fix, time left. */
function retryOf(step: WorkflowRunStep, error: RunError, now: Date): number | undefined {
  const attempts = step.attempts?.length ?? 0;
  if (!step.retry || attempts >= step.retry.attempts || NOT_RETRIED.has(error.code)) return undefined;
  const delay = retryDelayMs(step.retry, attempts);
  if (step.timeoutMs && step.startedAt && Date.parse(step.startedAt) + step.timeoutMs <= now.getTime() + delay) {
    return undefined;
  }
  return delay;
}

function pendingSteps(steps: WorkflowStep[]): WorkflowRunStep[] {
  return steps.map((step, index) => pendingStep(steps, step, index));
}

function pendingStep(steps: WorkflowStep[], step: WorkflowStep, index: number): WorkflowRunStep {
  const timeout = step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs };
  const kind = isApprovalStep(step)
    ? { agent: null, action: null, approval: step.approval, ...timeout }
    : {
        agent: step.agent,
        action: step.action,
        ...(step.context && { context: step.context }),
        ...(step.retry && { retry: step.retry }),
        ...timeout,
        attempts: [],
      };
  return {
    index,
    id: stepIdOf(step, index),
    needs: needsOf(steps, index).map((at) => stepIdOf(steps[at], at)),
    ...(step.when !== undefined && { when: step.when }),
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

/** A step changes; a run not ended waits while any of its steps waits for a person, and runs otherwise. */
function updateStep(
  state: WorkflowRunAggregate,
  index: number,
  change: Partial<WorkflowRunStep>,
): WorkflowRunAggregate {
  const steps = state.steps.map((step) => (step.index === index ? { ...step, ...change } : step));
  if (isEnded(state.status) || state.status === 'queued') return { ...state, steps };
  return { ...state, steps, status: steps.some((step) => step.status === 'waiting') ? 'waiting' : 'running' };
}

function endAttempt(attempts: StepAttempt[] | undefined, status: RunStatus, error: RunError | null): StepAttempt[] {
  if (!attempts?.length) return [];
  return [...attempts.slice(0, -1), { ...attempts[attempts.length - 1], status, error }];
}

/** The run ends: a step still running is cancelled with it, and the steps never reached are skipped. */
function finish(state: WorkflowRunAggregate, status: RunStatus, endedAt: string): WorkflowRunAggregate {
  const steps = state.steps.map((step): WorkflowRunStep => {
    if (step.status === 'pending') return { ...step, status: 'skipped' };
    if (step.status === 'running' || step.status === 'waiting') {
      const attempts = step.attempts && { attempts: endAttempt(step.attempts, 'cancelled', null) };
      return { ...step, status: 'cancelled', endedAt, ...attempts };
    }
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

export function toWorkflowRun({ workflowName: _name, outputStep: _output, ...run }: WorkflowRunAggregate): WorkflowRun {
  // Runs recorded before steps kept their task have none.
  return { ...run, steps: run.steps.map((step) => ({ ...step, task: step.task ?? null })) };
}
