import { DomainError } from '../../domain/decider';
import { ModelAttempt, RunError, Usage, addUsage, isEnded } from '../../domain/run';
import { AgentRunCommand, EndChildRun, QueueAgentRun, StartAgentRun, Wait } from './agent-run.commands';
import {
  AgentRunCancelled,
  AgentRunEndedData,
  AgentRunEvent,
  AgentRunQueued,
  AgentRunStarted,
} from './agent-run.events';
import { AgentRunAggregate, AgentRunState, ApprovalDecision } from './agent-run.state';
import { evolveAgentRun } from './evolve';
import { checkQueuedInput } from '../guardrail-checks/queued-input';

/** The events a command records on an agent run. */
export function decideAgentRun(state: AgentRunState, command: AgentRunCommand, now: Date): AgentRunEvent[] {
  const at = now.toISOString();
  if (command.type === 'QueueAgentRun') return queue(state, command, at);
  if (!state) throw new DomainError('not_found', 'The agent run does not exist');
  const runId = state.id;
  switch (command.type) {
    case 'StartAgentRun':
      return [start(state, command, at)];
    case 'RecordToolCall': {
      checkExecutor(state, command.executorId);
      const { callId, tool, input } = command;
      return [{ type: 'AgentRunToolCalled', data: { runId, callId, tool, input, at } }];
    }
    case 'RecordToolResult': {
      checkExecutor(state, command.executorId);
      const { callId, tool, output, error, replayed } = command;
      const result = error === undefined ? { output: output ?? null } : { error };
      const replay = replayed !== undefined && { replayed };
      return [{ type: 'AgentRunToolReturned', data: { runId, callId, tool, ...result, ...replay, at } }];
    }
    case 'RecordRecall': {
      checkExecutor(state, command.executorId);
      const { namespace, items, then } = command;
      const recalled: AgentRunEvent[] = state.recalled
        ? []
        : [{ type: 'AgentRunRecalled', data: { runId, namespace, items, at } }];
      if (!then) return recalled;
      return [...recalled, ...decideAgentRun(recalled.reduce(evolveAgentRun, state), then, now)];
    }
    case 'RecordGuardrailVerdict': {
      checkExecutor(state, command.executorId);
      const { verdict, callId } = command;
      return [{ type: 'AgentRunGuardrailChecked', data: { runId, ...verdict, ...(callId && { callId }), at } }];
    }
    case 'RenewRunLease':
      checkExecutor(state, command.executorId);
      return [{ type: 'AgentRunLeaseRenewed', data: { runId, executorId: command.executorId, at } }];
    case 'Wait':
      return wait(state, command, at);
    case 'EndChildRun':
      return endChildRun(state, command, at);
    case 'HandOff': {
      checkExecutor(state, command.executorId);
      const { callId, handoff, messages } = command;
      return [{ type: 'AgentRunHandedOff', data: { runId, callId, ...handoff, messages, at } }];
    }
    case 'DecideApprovals':
      return decideApprovals(state, command.decisions, at);
    case 'ExpireApprovals': {
      if (state.status !== 'waiting' || !state.waitingSince || state.waitingSince >= command.before) return [];
      // A run that waits only for its children has no time limit of its own: theirs bound it.
      if (!state.pendingApprovals.length) return [];
      const error = {
        code: 'approval_timeout',
        message: `No decision on the pending tool calls within ${command.timeoutMs} ms`,
      };
      const ended = endedData(state, state.usage, state.attempts, at);
      return [{ type: 'AgentRunFailed', data: { ...ended, error: withThreadNote(state, error) } }];
    }
    case 'EndAgentRun': {
      checkExecutor(state, command.executorId);
      const ended = endedData(state, command.usage, command.attempts, at, command.modelAttempts);
      const { outcome } = command;
      // A cancel asked for while the run was finishing wins: the client was told it would end cancelled.
      if ('cancelled' in outcome || state.cancelRequested) {
        const written =
          'cancelled' in outcome ? outcome.partialOutput : 'output' in outcome ? outcome.output : undefined;
        return [cancelled(state, ended, state.supersededBy, written)];
      }
      if ('error' in outcome) {
        return [{ type: 'AgentRunFailed', data: { ...ended, error: withThreadNote(state, outcome.error) } }];
      }
      const { output, outputObject } = outcome;
      const answeredBy = command.answeredBy && command.answeredBy !== state.agentId ? command.answeredBy : undefined;
      const answer = { output, ...(outputObject !== undefined && { outputObject }), ...(answeredBy && { answeredBy }) };
      return [{ type: 'AgentRunSucceeded', data: { ...ended, ...answer } }];
    }
    case 'CancelAgentRun':
      if (state.status === 'cancelled' || state.cancelRequested) return [];
      if (isEnded(state.status)) throw new DomainError('conflict', `Agent run ${runId} has already ${state.status}`);
      if (state.status === 'queued' || state.status === 'waiting') {
        return [cancelled(state, endedData(state, state.usage, state.attempts, at), command.supersededBy)];
      }
      const { supersededBy } = command;
      return [
        { type: 'AgentRunCancelRequested', data: { runId, requestedAt: at, ...(supersededBy && { supersededBy }) } },
      ];
    case 'ScoreAgentRun': {
      if (state.status !== 'succeeded') throw new DomainError('conflict', `Agent run ${runId} is ${state.status}`);
      const known = new Set((state.scores ?? []).map((score) => score.scorer));
      const scores = command.scores.filter((score) => !known.has(score.scorer)).map((score) => ({ ...score, at }));
      return scores.length ? [{ type: 'AgentRunScored', data: { runId, agentId: state.agentId, scores } }] : [];
    }
    case 'InterruptAgentRun': {
      const lastSign = state.heartbeatAt ?? state.startedAt;
      if (state.status !== 'running' || (lastSign && Date.parse(lastSign) >= Date.parse(command.staleBefore)))
        return [];
      const ended = endedData(state, state.usage, state.attempts, at);
      if (state.cancelRequested) return [cancelled(state, ended)];
      const error = { code: 'interrupted', message: 'The instance executing the run stopped before it ended' };
      return [{ type: 'AgentRunFailed', data: { ...ended, error: withThreadNote(state, error) } }];
    }
  }
}

function queue(state: AgentRunState, command: QueueAgentRun, createdAt: string): AgentRunEvent[] {
  if (state) {
    // A workflow step queues its run again after a restart: the same step, once.
    if (command.workflowRunId && state.workflowRunId === command.workflowRunId) return [];
    // A parent's child is queued again after a restart, or by a second instance: the same child, once.
    if (command.parentRunId && state.parentRunId === command.parentRunId) return [];
    // An experiment's item queued again after a restart, or by a second instance: once.
    if (command.experimentId && state.experimentId === command.experimentId) return [];
    throw new DomainError('conflict', `Agent run ${command.id} already exists`);
  }
  const { type: _type, start: claim, inputChecks, ...run } = command;
  const input = checkQueuedInput(run.task, run.context, inputChecks);
  const checked = input && { task: input.task, context: input.context, inputChecked: true as const };
  const queued: AgentRunQueued = { type: 'AgentRunQueued', data: { ...run, ...checked, createdAt } };
  const verdicts: AgentRunEvent[] = (input?.verdicts ?? []).map((verdict) => ({
    type: 'AgentRunGuardrailChecked',
    data: { runId: run.id, ...verdict, at: createdAt },
  }));
  if (!claim) return [queued, ...verdicts];
  const recorded = [queued, ...verdicts].reduce<AgentRunState>(evolveAgentRun, null);
  return [queued, ...verdicts, start(recorded!, { type: 'StartAgentRun', ...claim }, createdAt)];
}

function start(state: AgentRunAggregate, command: StartAgentRun, at: string): AgentRunStarted {
  if (state.status !== 'queued') throw new DomainError('conflict', `Agent run ${state.id} is ${state.status}`);
  return {
    type: 'AgentRunStarted',
    data: {
      runId: state.id,
      executorId: command.executorId,
      warnings: command.warnings,
      ...(command.agentVersion !== undefined ? { agentVersion: command.agentVersion } : {}),
      ...(command.outputSchema && !state.outputSchema ? { outputSchema: command.outputSchema } : {}),
      startedAt: at,
    },
  };
}

function decideApprovals(state: AgentRunAggregate, decisions: ApprovalDecision[], at: string): AgentRunEvent[] {
  const runId = state.id;
  if (state.status !== 'waiting') {
    throw new DomainError('conflict', `Agent run ${runId} is ${state.status}, not waiting`, [], 'not-waiting');
  }
  const pending = new Set(state.pendingApprovals.map((p) => p.toolCallId));
  const seen = new Set<string>();
  const errors = decisions.flatMap((d, i) => {
    const path = `decisions[${i}].toolCallId`;
    if (!pending.has(d.toolCallId))
      return [{ path, message: `"${d.toolCallId}" is not a pending tool call of the run` }];
    if (seen.has(d.toolCallId)) return [{ path, message: `"${d.toolCallId}" is decided twice` }];
    seen.add(d.toolCallId);
    return [];
  });
  if (errors.length) throw new DomainError('unprocessable', 'Some decisions are not for a pending tool call', errors);
  const resumed = state.pendingApprovals.every((p) => seen.has(p.toolCallId)) && !openChildren(state).length;
  return [{ type: 'AgentRunApprovalsDecided', data: { runId, decisions, resumed, at } }];
}

function wait(state: AgentRunAggregate, command: Wait, at: string): AgentRunEvent[] {
  checkExecutor(state, command.executorId);
  const { usage, attempts, children } = command;
  // A cancel asked for meanwhile wins: the run ends rather than wait (and starts no children).
  if (state.cancelRequested) return [cancelled(state, endedData(state, usage, attempts, at))];
  if (!children.length && !command.approvals.length) throw new Error('A run waits for a decision or a child run');
  const runId = state.id;
  const events: AgentRunEvent[] = [];
  if (children.length)
    events.push({ type: 'AgentRunChildRunsStarted', data: { runId, children, usage, attempts, at } });
  if (command.approvals.length) {
    const approvals = command.approvals.map((approval) => ({ ...approval, requestedAt: at }));
    events.push({ type: 'AgentRunApprovalRequested', data: { runId, approvals, usage, attempts, at } });
  }
  return events;
}

/**
 * A child's end, told once: it answers the call that started the child, and the last one to end resumes the run,
 * claimed in the same commit when the command carries a claim (`start`).
 */
function endChildRun(
  state: AgentRunAggregate,
  { childRunId, outcome, usage, start: claim }: EndChildRun,
  at: string,
): AgentRunEvent[] {
  const child = state.children?.find((c) => c.runId === childRunId);
  if (!child || isEnded(child.status) || isEnded(state.status)) return [];
  const call = state.toolCalls.find((c) => c.id === child.toolCallId);
  const result =
    'output' in outcome
      ? { status: 'succeeded' as const, output: outcome.outputObject ?? outcome.output }
      : 'error' in outcome
        ? { status: 'failed' as const, error: `${outcome.error.code}: ${outcome.error.message}` }
        : { status: 'cancelled' as const, error: `cancelled: the run of agent "${child.agent}" was cancelled` };
  const resumed = resumesWhenEnded(state, childRunId);
  const tool = call?.tool ?? `agent:${child.agent}`;
  const data = { runId: state.id, childRunId, callId: child.toolCallId, tool, ...result, usage, resumed, at };
  const ended: AgentRunEvent = { type: 'AgentRunChildRunEnded', data };
  if (!resumed || !claim) return [ended];
  return [ended, start(evolveAgentRun(state, ended)!, { type: 'StartAgentRun', ...claim }, at)];
}

/** Whether the run, waiting, goes on once this child's end is told: it waits for nothing else. */
export function resumesWhenEnded(state: AgentRunAggregate, childRunId: string): boolean {
  const othersOpen = openChildren(state).some((c) => c.runId !== childRunId);
  return state.status === 'waiting' && !othersOpen && !state.pendingApprovals.length;
}

/** The children whose end the run has not been told yet. */
function openChildren(state: AgentRunAggregate) {
  return (state.children ?? []).filter((child) => !isEnded(child.status));
}

function checkExecutor(state: AgentRunAggregate, executorId: string): void {
  if (state.status !== 'running' || state.executorId !== executorId) {
    throw new DomainError('conflict', `Agent run ${state.id} is no longer executed here (${state.status})`);
  }
}

function endedData(
  state: AgentRunAggregate,
  usage: Usage | null,
  attempts: number,
  endedAt: string,
  modelAttempts?: ModelAttempt[],
): AgentRunEndedData {
  const { id: runId, agentId, workflowRunId, stepIndex, threadId, parentRunId, parentToolCallId } = state;
  const open = openChildren(state).map((child) => child.runId);
  const total = state.childrenUsage ? addUsage([usage, state.childrenUsage]) : undefined;
  // After a fallback, the model named is the one the run called last: the one that answered, if it succeeded.
  const model = modelAttempts?.length ? modelAttempts[modelAttempts.length - 1].model : state.model;
  return {
    runId,
    agentId,
    ...(model ? { model } : {}),
    ...(modelAttempts?.length && { modelAttempts }),
    usage,
    ...(total !== undefined && { totalUsage: total }),
    attempts,
    endedAt,
    ...(workflowRunId !== null ? { workflowRunId, stepIndex: stepIndex! } : {}),
    ...(threadId ? { threadId } : {}),
    ...(parentRunId && parentToolCallId ? { parentRunId, parentToolCallId } : {}),
    ...(open.length && { openChildren: open }),
    ...(state.experimentId && { experimentId: state.experimentId }),
  };
}

/** A run on a thread that fails adds nothing to it: its error says so. */
function withThreadNote(state: AgentRunAggregate, error: RunError): RunError {
  if (!state.threadId) return error;
  return { ...error, message: `${error.message} (nothing was added to thread ${state.threadId})` };
}

/**
 * A cancelled run's ending: the later turn of its thread that cancelled it, if one did, and for an `interrupt`
 * (whose turn stays in the thread, marked interrupted) the answer the model had written so far.
 */
function cancelled(
  state: AgentRunAggregate,
  ended: AgentRunEndedData,
  supersededBy = state.supersededBy,
  written?: string,
): AgentRunCancelled {
  const kept = supersededBy?.strategy === 'interrupt' && written ? { partialOutput: written } : {};
  return { type: 'AgentRunCancelled', data: { ...ended, ...(supersededBy && { supersededBy }), ...kept } };
}
