import { DomainError } from '../../domain/decider';
import { isEnded } from '../../domain/run';
import { isoTime } from '../../shared/clock';
import { DecideWorkflowApproval, EndWorkflowStep, WorkflowRunCommand } from './workflow-run.commands';
import { WorkflowRunEvent, WorkflowRunStarted, WorkflowStepEnded, WorkflowStepReused } from './workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunState } from './workflow-run.state';
import { advance } from './advance';
import { evolveWorkflowRun } from './evolve';
import { retryOf } from './step-retry';
import { decideWaiting } from './decide-waiting';
import { endMapItem } from './map-steps';
import { nextIteration } from './repeat-steps';
import { withParent } from './child-steps';

/**
 * The events a command records on a workflow run. Starting the run, or ending a step, also starts the steps that can
 * run next, in the same decision (see advance.ts).
 */
export function decideWorkflowRun(state: WorkflowRunState, command: WorkflowRunCommand, now: Date): WorkflowRunEvent[] {
  return withParent(state, decideFor(state, command, now));
}

function decideFor(state: WorkflowRunState, command: WorkflowRunCommand, now: Date): WorkflowRunEvent[] {
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
      const { workflowName, workflowVersion, steps, outputStep, maxMapItems, maxDepth } = command;
      const output = outputStep !== undefined && { outputStep };
      const mapLimit = maxMapItems !== undefined && steps.some((step) => 'map' in step) && { maxMapItems };
      const depthLimit = maxDepth !== undefined && steps.some((step) => 'workflow' in step) && { maxDepth };
      const started: WorkflowRunStarted = {
        type: 'WorkflowRunStarted',
        data: { runId, workflowName, workflowVersion, steps, ...output, ...mapLimit, ...depthLimit, startedAt: at },
      };
      const fromRunId = state.replayOf?.runId ?? '';
      const reused = (command.reuse ?? []).map(({ index, output, outputObject }): WorkflowStepReused => ({
        type: 'WorkflowStepReused',
        data: { runId, index, fromRunId, output, ...(outputObject !== undefined && { outputObject }), reusedAt: at },
      }));
      return advance(state, [started, ...reused], command.newRunId, at);
    }
    case 'EndWorkflowStep': {
      const step = state.steps[command.index];
      // Repeats, and agent runs that end after their workflow run did, change nothing.
      if (isEnded(state.status) || step?.status !== 'running') return [];
      if (step.items) return endItem(state, command, at);
      if (step.agentRunId !== command.agentRunId) return [];
      return endStep(state, command, now);
    }
    case 'EndChildWorkflowStep': {
      const step = state.steps[command.index];
      if (isEnded(state.status) || step?.status !== 'running' || step.childRunId !== command.childRunId) return [];
      const { index, childRunId, outcome, newRunId } = command;
      return endStep(state, { type: 'EndWorkflowStep', index, agentRunId: childRunId, outcome, newRunId }, now);
    }
    case 'EndWorkflowSteps': {
      let current: WorkflowRunState = state;
      const out: WorkflowRunEvent[] = [];
      for (const end of command.ends) {
        const step: EndWorkflowStep = { type: 'EndWorkflowStep', ...end, newRunId: command.newRunId };
        const events = decideWorkflowRun(current, step, now);
        out.push(...events);
        current = events.reduce(evolveWorkflowRun, current);
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
    case 'DeliverSignal':
    case 'ExpireWorkflowWait':
    case 'WakeWorkflowStep':
      return isEnded(state.status) ? [] : decideWaiting(state, command, now);
    case 'CancelWorkflowRun':
      if (state.status === 'cancelled') return [];
      if (isEnded(state.status)) throw new DomainError('conflict', `Workflow run ${runId} has already ${state.status}`);
      return [{ type: 'WorkflowRunCancelled', data: { runId, endedAt: at } }];
  }
}

/** A map step's item ended; once the step has, the steps that can run next start. */
function endItem(state: WorkflowRunAggregate, command: EndWorkflowStep, at: string): WorkflowRunEvent[] {
  const { index, agentRunId, outcome, newRunId } = command;
  const events = endMapItem(state, index, agentRunId, outcome, newRunId, at);
  const ended = events.some((event) => event.type === 'WorkflowStepEnded' && event.data.status === 'succeeded');
  return ended ? advance(state, events, newRunId, at) : events;
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
    return endStep(state, { type: 'EndWorkflowStep', index, agentRunId: '', outcome, newRunId: command.newRunId }, now);
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
    const again = step.repeat && nextIteration(state, step, outcome, command.newRunId, at);
    if (again) return again;
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
    return advance(state, [ended], command.newRunId, at);
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
      nextAgentRunId: command.newRunId(step.workflow ? 'wfrun' : 'agentrun'),
      retryAt: new Date(now.getTime() + retry).toISOString(),
    };
    return [{ type: 'WorkflowStepRetrying', data }];
  }
  const error = {
    code: 'step_failed',
    message: `Step ${index} (${step.workflow ? `workflow "${step.workflow}"` : `agent "${step.agent}"`}) failed: ${outcome.error.message}`,
  };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error: outcome.error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}
