import { RunStatus, addUsage, isEnded } from '../../domain/run';
import { AgentRunEndedData, AgentRunEvent } from './agent-run.events';
import { AgentRunAggregate, AgentRunState, ChildRunRequest, ToolCall } from './agent-run.state';
import { agentToolId } from '../agent-tool';

/** An agent run after one of its events. */
export function evolveAgentRun(state: AgentRunState, event: AgentRunEvent): AgentRunState {
  const next = evolveFields(state, event);
  return next && withTotals(next);
}

/** What the run's children make of it: the ones it waits for, and its usage with theirs. */
function withTotals(run: AgentRunAggregate): AgentRunAggregate {
  const children = run.children ?? [];
  const waitingOn =
    run.status === 'waiting'
      ? children.filter((child) => !isEnded(child.status)).map(({ runId, agent }) => ({ runId, agent }))
      : [];
  const totalUsage = run.childrenUsage ? addUsage([run.usage, run.childrenUsage]) : run.usage;
  return { ...run, waitingOn, totalUsage };
}

function evolveFields(state: AgentRunState, event: AgentRunEvent): AgentRunState {
  if (event.type === 'AgentRunQueued') {
    const { id, agentId, task, context, createdAt, model, agentVersion, outputSchema, workflowRunId, stepIndex } =
      event.data;
    const threadId = event.data.threadId ?? null;
    const replayOf = event.data.replayOf ?? null;
    const source = event.data.source ?? null;
    const experimentId = event.data.experimentId ?? null;
    const trial = event.data.trial ?? null;
    const { parentRunId = null, parentToolCallId = null, depth = 0, startAgentId = null } = event.data;
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
      source,
      experimentId,
      trial,
      parentRunId,
      parentToolCallId,
      depth,
      children: [],
      waitingOn: [],
      totalUsage: null,
      childrenUsage: null,
      handoffs: [],
      answeredBy: null,
      startAgentId,
      lastHandoff: null,
      scores: [],
      inputChecked: event.data.inputChecked === true,
      cancelRequested: false,
      ...(event.data.multitask && { multitask: event.data.multitask }),
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
      const { callId, output, error, replayed, at } = event.data;
      return { ...state, toolCalls: withResult(state.toolCalls, callId, { output, error, replayed }, at) };
    }
    case 'AgentRunScored':
      return { ...state, scores: [...(state.scores ?? []), ...event.data.scores] };
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
    case 'AgentRunChildRunsStarted': {
      const { usage, attempts, at } = event.data;
      const started = event.data.children.map(({ runId, agentId, agent, toolCallId }) => ({
        ...{ runId, agentId, agent, toolCallId },
        status: 'queued' as const,
      }));
      const children = [...(state.children ?? []), ...started];
      const toolCalls = [...state.toolCalls, ...childCalls(state.toolCalls, event.data.children, at)];
      return { ...state, status: 'waiting', children, toolCalls, usage, attempts, executorId: null, heartbeatAt: null };
    }
    case 'AgentRunChildRunEnded': {
      const { childRunId, callId, output, error, status, usage, resumed, at } = event.data;
      const childrenUsage = usage ? addUsage([state.childrenUsage, usage]) : state.childrenUsage;
      const toolCalls = withResult(state.toolCalls, callId, { output, error }, at);
      const children = state.children.map((child) => (child.runId === childRunId ? { ...child, status } : child));
      return { ...state, toolCalls, children, childrenUsage, ...(resumed && { status: 'queued' as const }) };
    }
    case 'AgentRunHandedOff': {
      const { runId: _runId, callId: _callId, messages, ...handoff } = event.data;
      const lastHandoff = { messages, toolCallsBefore: state.toolCalls.length };
      return { ...state, handoffs: [...(state.handoffs ?? []), handoff], lastHandoff };
    }
    case 'AgentRunRecalled':
      return { ...state, recalled: event.data.items };
    case 'AgentRunCancelRequested': {
      const { supersededBy } = event.data;
      return { ...state, cancelRequested: true, ...(supersededBy && { supersededBy }) };
    }
    case 'AgentRunSucceeded':
      return {
        ...ended(state, 'succeeded', event.data),
        output: event.data.output,
        outputObject: event.data.outputObject ?? null,
        answeredModel: event.data.model ?? state.model,
        answeredBy: event.data.answeredBy ?? state.agentId,
      };
    case 'AgentRunFailed':
      return { ...ended(state, 'failed', event.data), error: event.data.error };
    case 'AgentRunCancelled': {
      const { supersededBy } = event.data;
      return { ...ended(state, 'cancelled', event.data), ...(supersededBy && { supersededBy }) };
    }
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

/** The calls with `callId`'s result: its output, or its error. */
function withResult(
  calls: ToolCall[],
  callId: string,
  result: Pick<ToolCall, 'output' | 'error' | 'replayed'>,
  at: string,
) {
  const { output, error, replayed } = result;
  const replay = replayed !== undefined && { replayed };
  return calls.map((call) =>
    call.id === callId ? { ...call, ...(error === undefined ? { output } : { error }), ...replay, endedAt: at } : call,
  );
}

/**
 * The calls that started the children, as tool calls of the run: recorded by the event that starts the children
 * (runs recorded before that recorded each call first, as any tool's: those are not added twice).
 */
export function childCalls(recorded: ToolCall[], children: ChildRunRequest[], at: string): ToolCall[] {
  const known = new Set(recorded.map((call) => call.id));
  return children
    .filter((child) => !known.has(child.toolCallId))
    .map(({ toolCallId, agent, task, context }) => ({
      id: toolCallId,
      tool: agentToolId(agent),
      input: Object.keys(context).length ? { task, context } : { task },
      startedAt: at,
      endedAt: null,
    }));
}
