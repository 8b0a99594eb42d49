import { RunStatus } from '../../domain/run';
import { AgentRunEndedData, AgentRunEvent } from './agent-run.events';
import { AgentRunAggregate, AgentRunState, ToolCall } from './agent-run.state';

/** An agent run after one of its events. */
export function evolveAgentRun(state: AgentRunState, event: AgentRunEvent): AgentRunState {
  if (event.type === 'AgentRunQueued') {
    const { id, agentId, task, context, createdAt, model, agentVersion, outputSchema, workflowRunId, stepIndex } =
      event.data;
    const threadId = event.data.threadId ?? null;
    const replayOf = event.data.replayOf ?? null;
    return {
      id,
      agentId,
      agentVersion: agentVersion ?? null,
      model: model ?? '',
      task,
      context,
      status: 'queued',
      output: null,
      outputSchema: outputSchema ?? null,
      outputObject: null,
      toolCalls: [],
      pendingApprovals: [],
      usage: null,
      attempts: 0,
      modelAttempts: [],
      answeredModel: null,
      guardrails: [],
      error: null,
      warnings: [],
      workflowRunId: workflowRunId ?? null,
      stepIndex: stepIndex ?? null,
      threadId,
      replayOf,
      cancelRequested: false,
      createdAt,
      startedAt: null,
      endedAt: null,
      executorId: null,
      heartbeatAt: null,
      decided: [],
      waitingSince: null,
    };
  }
  if (!state) return state;
  switch (event.type) {
    case 'AgentRunStarted': {
      const { executorId, warnings, startedAt } = event.data;
      const agentVersion = event.data.agentVersion ?? state.agentVersion;
      const outputSchema = event.data.outputSchema ?? state.outputSchema ?? null;
      // A run resumed after a decision keeps when it first started.
      const first = state.startedAt ?? startedAt;
      const started = {
        status: 'running' as const,
        executorId,
        warnings,
        agentVersion,
        outputSchema,
        startedAt: first,
      };
      return { ...state, ...started, heartbeatAt: startedAt };
    }
    case 'AgentRunToolCalled': {
      const { callId, tool, input, at } = event.data;
      const call: ToolCall = { id: callId, tool, input, startedAt: at, endedAt: null };
      return { ...state, toolCalls: [...state.toolCalls, call] };
    }
    case 'AgentRunToolReturned': {
      const { callId, output, error, at } = event.data;
      const toolCalls = state.toolCalls.map((call) =>
        call.id === callId ? { ...call, ...(error === undefined ? { output } : { error }), endedAt: at } : call,
      );
      return { ...state, toolCalls };
    }
    case 'AgentRunGuardrailChecked': {
      const { runId: _runId, ...verdict } = event.data;
      return { ...state, guardrails: [...(state.guardrails ?? []), verdict] };
    }
    case 'AgentRunLeaseRenewed':
      return { ...state, heartbeatAt: event.data.at };
    case 'AgentRunApprovalRequested': {
      const { approvals, usage, attempts, at } = event.data;
      const pending = { pendingApprovals: approvals, decided: [], waitingSince: at };
      return { ...state, status: 'waiting', ...pending, usage, attempts, executorId: null, heartbeatAt: null };
    }
    case 'AgentRunApprovalsDecided': {
      const byId = new Map(state.pendingApprovals.map((p) => [p.toolCallId, p]));
      const decided = [
        ...(state.decided ?? []),
        ...event.data.decisions.map((d) => ({
          ...d,
          tool: byId.get(d.toolCallId)!.tool,
          requestedArgs: byId.get(d.toolCallId)!.args,
        })),
      ];
      const ids = new Set(decided.map((d) => d.toolCallId));
      const pendingApprovals = state.pendingApprovals.filter((p) => !ids.has(p.toolCallId));
      if (!event.data.resumed) return { ...state, pendingApprovals, decided };
      return { ...state, status: 'queued', pendingApprovals, decided, waitingSince: null };
    }
    case 'AgentRunCancelRequested':
      return { ...state, cancelRequested: true };
    case 'AgentRunSucceeded':
      return {
        ...ended(state, 'succeeded', event.data),
        output: event.data.output,
        outputObject: event.data.outputObject ?? null,
        answeredModel: event.data.model ?? state.model,
      };
    case 'AgentRunFailed':
      return { ...ended(state, 'failed', event.data), error: event.data.error };
    case 'AgentRunCancelled':
      return ended(state, 'cancelled', event.data);
    default:
      return state;
  }
}

function ended(state: AgentRunAggregate, status: RunStatus, data: AgentRunEndedData): AgentRunAggregate {
  return {
    ...state,
    status,
    usage: data.usage,
    attempts: data.attempts,
    modelAttempts: data.modelAttempts ?? [],
    endedAt: data.endedAt,
    cancelRequested: false,
    pendingApprovals: [],
    waitingSince: null,
  };
}
