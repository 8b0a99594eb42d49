import { DomainError } from '../../domain/decider';
import { ModelAttempt, RunError, Usage, isEnded } from '../../domain/run';
import { AgentRunCommand, QueueAgentRun, StartAgentRun } from './agent-run.commands';
import { AgentRunEndedData, AgentRunEvent, AgentRunQueued, AgentRunStarted } from './agent-run.events';
import { AgentRunAggregate, AgentRunState, ApprovalDecision } from './agent-run.state';
import { evolveAgentRun } from './evolve';

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
      const { callId, tool, output, error } = command;
      const result = error === undefined ? { output: output ?? null } : { error };
      return [{ type: 'AgentRunToolReturned', data: { runId, callId, tool, ...result, at } }];
    }
    case 'RecordGuardrailVerdict': {
      checkExecutor(state, command.executorId);
      const { verdict, callId } = command;
      return [{ type: 'AgentRunGuardrailChecked', data: { runId, ...verdict, ...(callId && { callId }), at } }];
    }
    case 'RenewRunLease':
      checkExecutor(state, command.executorId);
      return [{ type: 'AgentRunLeaseRenewed', data: { runId, executorId: command.executorId, at } }];
    case 'RequestApprovals': {
      checkExecutor(state, command.executorId);
      // A cancel asked for meanwhile wins: the run ends rather than wait.
      if (state.cancelRequested) {
        return [{ type: 'AgentRunCancelled', data: endedData(state, command.usage, command.attempts, at) }];
      }
      const approvals = command.approvals.map((approval) => ({ ...approval, requestedAt: at }));
      const { usage, attempts } = command;
      return [{ type: 'AgentRunApprovalRequested', data: { runId, approvals, usage, attempts, at } }];
    }
    case 'DecideApprovals':
      return decideApprovals(state, command.decisions, at);
    case 'ExpireApprovals': {
      if (state.status !== 'waiting' || !state.waitingSince || state.waitingSince >= command.before) return [];
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
      if ('cancelled' in outcome || state.cancelRequested) return [{ type: 'AgentRunCancelled', data: ended }];
      if ('error' in outcome) {
        return [{ type: 'AgentRunFailed', data: { ...ended, error: withThreadNote(state, outcome.error) } }];
      }
      const { output, outputObject } = outcome;
      return [
        {
          type: 'AgentRunSucceeded',
          data: { ...ended, output, ...(outputObject !== undefined && { outputObject }) },
        },
      ];
    }
    case 'CancelAgentRun':
      if (state.status === 'cancelled' || state.cancelRequested) return [];
      if (isEnded(state.status)) throw new DomainError('conflict', `Agent run ${runId} has already ${state.status}`);
      if (state.status === 'queued' || state.status === 'waiting') {
        return [{ type: 'AgentRunCancelled', data: endedData(state, state.usage, state.attempts, at) }];
      }
      return [{ type: 'AgentRunCancelRequested', data: { runId, requestedAt: at } }];
    case 'InterruptAgentRun': {
      const lastSign = state.heartbeatAt ?? state.startedAt;
      if (state.status !== 'running' || (lastSign && Date.parse(lastSign) >= Date.parse(command.staleBefore)))
        return [];
      const ended = endedData(state, state.usage, state.attempts, at);
      if (state.cancelRequested) return [{ type: 'AgentRunCancelled', data: ended }];
      const error = { code: 'interrupted', message: 'The instance executing the run stopped before it ended' };
      return [{ type: 'AgentRunFailed', data: { ...ended, error: withThreadNote(state, error) } }];
    }
  }
}

function queue(state: AgentRunState, command: QueueAgentRun, createdAt: string): AgentRunEvent[] {
  if (state) {
    // A workflow step queues its run again after a restart: the same step, once.
    if (command.workflowRunId && state.workflowRunId === command.workflowRunId) return [];
    throw new DomainError('conflict', `Agent run ${command.id} already exists`);
  }
  const { type: _type, start: claim, ...run } = command;
  const queued: AgentRunQueued = { type: 'AgentRunQueued', data: { ...run, createdAt } };
  if (!claim) return [queued];
  const started = start(evolveAgentRun(null, queued)!, { type: 'StartAgentRun', ...claim }, createdAt);
  return [queued, started];
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
  const resumed = state.pendingApprovals.every((p) => seen.has(p.toolCallId));
  return [{ type: 'AgentRunApprovalsDecided', data: { runId, decisions, resumed, at } }];
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
  const { id: runId, agentId, workflowRunId, stepIndex, threadId } = state;
  // After a fallback, the model named is the one the run called last: the one that answered, if it succeeded.
  const model = modelAttempts?.length ? modelAttempts[modelAttempts.length - 1].model : state.model;
  return {
    runId,
    agentId,
    ...(model ? { model } : {}),
    ...(modelAttempts?.length && { modelAttempts }),
    usage,
    attempts,
    endedAt,
    ...(workflowRunId !== null ? { workflowRunId, stepIndex: stepIndex! } : {}),
    ...(threadId ? { threadId } : {}),
  };
}

/** A run on a thread that fails adds nothing to it: its error says so. */
function withThreadNote(state: AgentRunAggregate, error: RunError): RunError {
  if (!state.threadId) return error;
  return { ...error, message: `${error.message} (nothing was added to thread ${state.threadId})` };
}
