import { RunError, RunStatus, isEnded } from '../../domain/run';
import { needsOf, stepIdOf } from '../../shared/step-graph';
import {
  ApprovalStep,
  SleepStep,
  WaitStep,
  WorkflowCallStep,
  WorkflowStep,
  isAgentStep,
  isApprovalStep,
  isWaitStep,
  isWorkflowCallStep,
} from '../workflow/workflow.state';
import { WorkflowRunEvent } from './workflow-run.events';
import { MapItem, StepAttempt, WorkflowRunAggregate, WorkflowRunState, WorkflowRunStep } from './workflow-run.state';

/** A workflow run after one of its events. */
export function evolveWorkflowRun(state: WorkflowRunState, event: WorkflowRunEvent): WorkflowRunState {
  if (event.type === 'WorkflowRunQueued') {
    const {
      id,
      workflowId,
      input,
      trigger,
      createdAt,
      workflowVersion,
      replayOf,
      source,
      experimentId,
      trial,
      parent,
    } = event.data;
    return {
      ...(replayOf && { replayOf }),
      ...(parent && { parent, parentRunId: parent.runId, parentStep: parent.step }),
      ...(source && { source }),
      ...(experimentId && { experimentId }),
      ...(trial && { trial }),
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
      const { workflowName, steps, startedAt, outputStep, maxMapItems, maxDepth } = event.data;
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
        ...(maxMapItems !== undefined && { maxMapItems }),
        ...(maxDepth !== undefined && { maxDepth }),
      };
    }
    case 'WorkflowStepStarted': {
      const { index, agentRunId, startedAt, task, missing } = event.data;
      const attempts = [{ runId: agentRunId, status: 'running' as const, error: null }];
      const gaps = missing?.length ? { missing } : {};
      return updateStep(state, index, { status: 'running', agentRunId, startedAt, task, ...gaps, attempts });
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
    case 'WorkflowStepSkipped': {
      // Every WorkflowStepSkipped has named its reason since the event was first recorded.
      const { index, reason, skippedAt } = event.data;
      return updateStep(state, index, { status: 'skipped', skipReason: reason, endedAt: skippedAt });
    }
    case 'WorkflowStepRetrying': {
      // A workflow step's attempts are child runs: the ids name its next child run.
      const { index, error, nextAgentRunId } = event.data;
      const step = state.steps.find((s) => s.index === index);
      const attempts = [
        ...endAttempt(step?.attempts, 'failed', error),
        { runId: nextAgentRunId, status: 'queued' as const, error: null },
      ];
      const next = step?.workflow ? { childRunId: nextAgentRunId } : { agentRunId: nextAgentRunId };
      return updateStep(state, index, { ...next, attempts });
    }
    case 'WorkflowChildRunStarted': {
      const { index, input, childRunId, startedAt } = event.data;
      const attempts = [{ runId: childRunId, status: 'running' as const, error: null }];
      return updateStep(state, index, { status: 'running', sentInput: input, childRunId, startedAt, attempts });
    }
    case 'WorkflowStepRepeating': {
      const { index, output, task, missing, nextAgentRunId } = event.data;
      const step = state.steps.find((s) => s.index === index);
      const attempts = [
        ...endAttempt(step?.attempts, 'succeeded', null, output),
        { runId: nextAgentRunId, status: 'running' as const, error: null },
      ];
      const gaps = missing?.length ? { missing } : { missing: undefined };
      return updateStep(state, index, { agentRunId: nextAgentRunId, task, ...gaps, attempts });
    }
    case 'WorkflowSignalAwaited': {
      const { index, signal, key, timeoutAt, attempt, awaitedAt } = event.data;
      const awaiting = { signal, key, timeoutAt: timeoutAt ?? null, ...(attempt && { attempt }) };
      // A wait begun again after a time-out keeps the step's first start.
      const startedAt = attempt ? state.steps.find((s) => s.index === index)?.startedAt : awaitedAt;
      return updateStep(state, index, { status: 'waiting', startedAt: startedAt ?? awaitedAt, awaiting });
    }
    case 'WorkflowSignalReceived': {
      const { index, signalId } = event.data;
      const awaiting = state.steps.find((s) => s.index === index)?.awaiting;
      return awaiting ? updateStep(state, index, { awaiting: { ...awaiting, signalId } }) : state;
    }
    case 'WorkflowStepSleeping': {
      const { index, until, sleptAt } = event.data;
      return updateStep(state, index, { status: 'waiting', startedAt: sleptAt, wakeAt: until });
    }
    case 'WorkflowMapStarted': {
      const { index, count, startedAt } = event.data;
      const items = Array.from({ length: count }, (_, at): MapItem => ({
        index: at,
        status: 'pending',
        agentRunId: null,
        task: null,
        output: null,
        error: null,
      }));
      return updateStep(state, index, { status: 'running', startedAt, items });
    }
    case 'WorkflowMapItemStarted': {
      const { index, item, task, missing, agentRunId } = event.data;
      return updateItem(state, index, item, { status: 'running', agentRunId, task, ...(missing && { missing }) });
    }
    case 'WorkflowMapItemEnded': {
      const { index, item, status, output, outputObject, error } = event.data;
      const answer = { output: output ?? null, ...(outputObject !== undefined && { outputObject }) };
      return updateItem(state, index, item, { status, ...answer, error: error ?? null });
    }
    case 'WorkflowApprovalRequested': {
      const { index, requestedAt } = event.data;
      return updateStep(state, index, { status: 'waiting', startedAt: requestedAt });
    }
    case 'WorkflowStepEnded': {
      const { index, status, output, outputObject, error, endedAt } = event.data;
      const answer = { output: output ?? null, ...(outputObject !== undefined && { outputObject }) };
      const step = state.steps.find((s) => s.index === index);
      const attempts = step?.attempts && {
        attempts: endAttempt(step.attempts, status, error ?? null, step.repeat ? output : undefined),
      };
      const items = step?.items && { items: stopItems(step.items) };
      return updateStep(state, index, { status, ...answer, error: error ?? null, endedAt, ...attempts, ...items });
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
}

function pendingSteps(steps: WorkflowStep[]): WorkflowRunStep[] {
  return steps.map((step, index) => pendingStep(steps, step, index));
}

function pendingStep(steps: WorkflowStep[], step: WorkflowStep, index: number): WorkflowRunStep {
  const kind = isAgentStep(step)
    ? {
        agent: step.agent,
        action: step.action,
        ...(step.context && { context: step.context }),
        ...(step.retry && { retry: step.retry }),
        ...(step.repeat && { repeat: step.repeat }),
        ...(step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs }),
        ...(step.map && { map: step.map, onItemError: step.onItemError ?? 'fail' }),
        ...(!step.map && { attempts: [] }),
      }
    : { agent: null, action: null, ...waitingKind(step) };
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

/** An approval, wait, sleep or workflow step as its run keeps it. */
function waitingKind(step: ApprovalStep | WaitStep | SleepStep | WorkflowCallStep) {
  if (isWorkflowCallStep(step)) {
    return {
      workflow: step.workflow,
      ...(step.input !== undefined && { input: step.input }),
      ...(step.retry && { retry: step.retry }),
      ...(step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs }),
      childRunId: null,
      attempts: [],
    };
  }
  if (isApprovalStep(step)) {
    return { approval: step.approval, ...(step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs }) };
  }
  return isWaitStep(step) ? { wait: step.wait, ...(step.retry && { retry: step.retry }) } : { sleep: step.sleep };
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

/** An item of a map step changes. */
function updateItem(
  state: WorkflowRunAggregate,
  index: number,
  item: number,
  change: Partial<MapItem>,
): WorkflowRunAggregate {
  const items = state.steps.find((step) => step.index === index)?.items;
  if (!items) return state;
  return updateStep(state, index, { items: items.map((it) => (it.index === item ? { ...it, ...change } : it)) });
}

/** A map step ended before all its items did: those running are cancelled, and those not started never will be. */
function stopItems(items: MapItem[]): MapItem[] {
  if (items.every((item) => item.status !== 'running' && item.status !== 'pending')) return items;
  return items.map((item) =>
    item.status === 'running'
      ? { ...item, status: 'cancelled' }
      : item.status === 'pending'
        ? { ...item, status: 'skipped' }
        : item,
  );
}

function endAttempt(
  attempts: StepAttempt[] | undefined,
  status: RunStatus,
  error: RunError | null,
  output?: string,
): StepAttempt[] {
  if (!attempts?.length) return [];
  const answer = output !== undefined && { output };
  return [...attempts.slice(0, -1), { ...attempts[attempts.length - 1], status, error, ...answer }];
}

/** The run ends: a step still running is cancelled with it, and the steps never reached are skipped. */
function finish(state: WorkflowRunAggregate, status: RunStatus, endedAt: string): WorkflowRunAggregate {
  const steps = state.steps.map((step): WorkflowRunStep => {
    if (step.status === 'pending') return { ...step, status: 'skipped' };
    if (step.status === 'running' || step.status === 'waiting') {
      const attempts = step.attempts && { attempts: endAttempt(step.attempts, 'cancelled', null) };
      const items = step.items && { items: stopItems(step.items) };
      return { ...step, status: 'cancelled', endedAt, ...attempts, ...items };
    }
    return step;
  });
  return { ...state, status, steps, endedAt };
}
