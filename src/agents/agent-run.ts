import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';
import { RunError, RunStatus, Usage, isEnded } from '../domain/run';

export interface ToolCall {
  id: string;
  /** The tool's id, e.g. `current_time` or `mcp:files/read`. */
  tool: string;
  input: unknown;
  output?: unknown;
  error?: string;
  startedAt: string;
  endedAt: string | null;
}

/** A tool call that waits for a person's decision. */
export interface PendingApproval {
  toolCallId: string;
  tool: string;
  args: unknown;
  requestedAt: string;
}

/** A person's decision on a pending call: `args` replaces the call's arguments when approving. */
export interface ApprovalDecision {
  toolCallId: string;
  decision: 'approve' | 'reject';
  reason?: string;
  args?: unknown;
}

/** Set when a workflow step made the run. */
export interface WorkflowStepRef {
  workflowRunId: string;
  stepIndex: number;
}

export interface AgentRun {
  id: string;
  agentId: string;
  /**
   * The agent's version when the run was queued, then the version whose definition it runs once it has started;
   * null for runs recorded before versions.
   */
  agentVersion: number | null;
  model: string;
  task: string;
  context: Record<string, unknown>;
  status: RunStatus;
  output: string | null;
  /** The JSON Schema the answer must match: the run's own, else (once started) its agent's; null: free text. */
  outputSchema: Record<string, unknown> | null;
  /** The answer parsed and valid against `outputSchema`. */
  outputObject: unknown;
  toolCalls: ToolCall[];
  /** While `waiting`: the calls that wait for a decision. */
  pendingApprovals: PendingApproval[];
  usage: Usage | null;
  /** Model requests made, retries included. */
  attempts: number;
  error: RunError | null;
  /** E.g. tools the agent names that are unknown now, left out of the run. */
  warnings: string[];
  workflowRunId: string | null;
  stepIndex: number | null;
  /** The thread whose conversation the run continues. */
  threadId: string | null;
  /** The run this one replays (POST …/runs/{runId}/replay); null for a run of its own. */
  replayOf: string | null;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

/** The run and who executes it: the executor renews its lease with heartbeats while it runs. */
export interface AgentRunAggregate extends AgentRun {
  executorId: string | null;
  heartbeatAt: string | null;
  /** The calls decided since the run last waited, with their calls as requested: the resume carries them out. */
  decided: Array<ApprovalDecision & { tool: string; requestedArgs: unknown }>;
  /** When it began to wait (the approval timeout counts from here). */
  waitingSince: string | null;
}

export type AgentRunState = AgentRunAggregate | null;

export type QueueAgentRun = {
  type: 'QueueAgentRun';
  id: string;
  agentId: string;
  model: string;
  agentVersion?: number;
  task: string;
  context: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  threadId?: string;
  replayOf?: string;
  /** The local executor has a free slot: the run is queued and claimed (started) in one commit. */
  start?: Omit<StartAgentRun, 'type'>;
} & Partial<WorkflowStepRef>;
export type StartAgentRun = {
  type: 'StartAgentRun';
  executorId: string;
  warnings: string[];
  agentVersion?: number;
  /** The agent's schema, for a run without its own. */
  outputSchema?: Record<string, unknown>;
};
export type RecordToolCall = {
  type: 'RecordToolCall';
  executorId: string;
  callId: string;
  tool: string;
  input: unknown;
};
export type RecordToolResult = {
  type: 'RecordToolResult';
  executorId: string;
  callId: string;
  tool: string;
  output?: unknown;
  error?: string;
};
export type RenewRunLease = { type: 'RenewRunLease'; executorId: string };
/** The executor stops at calls that need a person: the run waits, holding nothing. */
export type RequestApprovals = {
  type: 'RequestApprovals';
  executorId: string;
  approvals: Array<Omit<PendingApproval, 'requestedAt'>>;
  usage: Usage | null;
  attempts: number;
};
export type DecideApprovals = { type: 'DecideApprovals'; decisions: ApprovalDecision[] };
/** Fails a run that has waited since before `before`. */
export type ExpireApprovals = { type: 'ExpireApprovals'; before: string; timeoutMs: number };
export type EndAgentRun = {
  type: 'EndAgentRun';
  executorId: string;
  outcome: { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true };
  usage: Usage | null;
  attempts: number;
};
export type CancelAgentRun = { type: 'CancelAgentRun' };
/** Ends a run whose executor stopped renewing its lease before `staleBefore`. */
export type InterruptAgentRun = { type: 'InterruptAgentRun'; staleBefore: string };
export type AgentRunCommand =
  | QueueAgentRun
  | StartAgentRun
  | RecordToolCall
  | RecordToolResult
  | RenewRunLease
  | RequestApprovals
  | DecideApprovals
  | ExpireApprovals
  | EndAgentRun
  | CancelAgentRun
  | InterruptAgentRun;

/**
 * An ending names the run's agent and model, and the workflow step that made the run and its thread, if any, so
 * the workflow's process manager, the threads, usage and metrics need no look-up.
 */
type Ended = {
  runId: string;
  /** Absent in endings recorded before cost was counted. */
  agentId?: string;
  model?: string;
  usage: Usage | null;
  attempts: number;
  endedAt: string;
  threadId?: string;
} & Partial<WorkflowStepRef>;
export type AgentRunQueued = DomainEvent<
  'AgentRunQueued',
  Pick<AgentRun, 'id' | 'agentId' | 'task' | 'context' | 'createdAt'> & {
    model?: string;
    agentVersion?: number;
    outputSchema?: Record<string, unknown>;
    threadId?: string;
    replayOf?: string;
  } & Partial<WorkflowStepRef>
>;
export type AgentRunStarted = DomainEvent<
  'AgentRunStarted',
  {
    runId: string;
    executorId: string;
    warnings: string[];
    agentVersion?: number;
    outputSchema?: Record<string, unknown>;
    startedAt: string;
  }
>;
export type AgentRunToolCalled = DomainEvent<
  'AgentRunToolCalled',
  { runId: string; callId: string; tool: string; input: unknown; at: string }
>;
export type AgentRunToolReturned = DomainEvent<
  'AgentRunToolReturned',
  { runId: string; callId: string; tool: string; output?: unknown; error?: string; at: string }
>;
export type AgentRunLeaseRenewed = DomainEvent<
  'AgentRunLeaseRenewed',
  { runId: string; executorId: string; at: string }
>;
export type AgentRunApprovalRequested = DomainEvent<
  'AgentRunApprovalRequested',
  { runId: string; approvals: PendingApproval[]; usage: Usage | null; attempts: number; at: string }
>;
/** `resumed`: every pending call has its decision, and the run is queued again to go on. */
export type AgentRunApprovalsDecided = DomainEvent<
  'AgentRunApprovalsDecided',
  { runId: string; decisions: ApprovalDecision[]; resumed: boolean; at: string }
>;
export type AgentRunSucceeded = DomainEvent<'AgentRunSucceeded', Ended & { output: string; outputObject?: unknown }>;
export type AgentRunFailed = DomainEvent<'AgentRunFailed', Ended & { error: RunError }>;
export type AgentRunCancelRequested = DomainEvent<'AgentRunCancelRequested', { runId: string; requestedAt: string }>;
export type AgentRunCancelled = DomainEvent<'AgentRunCancelled', Ended>;
export type AgentRunEvent =
  | AgentRunQueued
  | AgentRunStarted
  | AgentRunToolCalled
  | AgentRunToolReturned
  | AgentRunLeaseRenewed
  | AgentRunApprovalRequested
  | AgentRunApprovalsDecided
  | AgentRunSucceeded
  | AgentRunFailed
  | AgentRunCancelRequested
  | AgentRunCancelled;

export const AGENT_RUN_EVENT_TYPES = eventTypes<AgentRunEvent>({
  AgentRunQueued: true,
  AgentRunStarted: true,
  AgentRunToolCalled: true,
  AgentRunToolReturned: true,
  AgentRunLeaseRenewed: true,
  AgentRunApprovalRequested: true,
  AgentRunApprovalsDecided: true,
  AgentRunSucceeded: true,
  AgentRunFailed: true,
  AgentRunCancelRequested: true,
  AgentRunCancelled: true,
});

/** The events that end an agent run. */
export const AGENT_RUN_ENDINGS = ['AgentRunSucceeded', 'AgentRunFailed', 'AgentRunCancelled'] as const;

export const agentRunStream = (runId: string) => `agentrun-${runId}`;

/** The run as its queueing on a new stream leaves it: the decider's answer, before it is recorded. */
export function runQueuedBy(command: QueueAgentRun, now: Date): AgentRunState {
  return agentRunDecider.decide(null, command, now).reduce(agentRunDecider.evolve, null);
}

export const agentRunDecider: Decider<AgentRunState, AgentRunCommand, AgentRunEvent> = {
  initialState: null,
  // A run's stream is written a few times within moments, then never again; its executor holds an actor of its own.
  cacheActors: false,

  decide(state, command, now) {
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
        const ended = endedData(state, command.usage, command.attempts, at);
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
  },

  evolve(state, event) {
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
        };
      case 'AgentRunFailed':
        return { ...ended(state, 'failed', event.data), error: event.data.error };
      case 'AgentRunCancelled':
        return ended(state, 'cancelled', event.data);
      default:
        return state;
    }
  },
};

function queue(state: AgentRunState, command: QueueAgentRun, createdAt: string): AgentRunEvent[] {
  if (state) {
    // A workflow step queues its run again after a restart: the same step, once.
    if (command.workflowRunId && state.workflowRunId === command.workflowRunId) return [];
    throw new DomainError('conflict', `Agent run ${command.id} already exists`);
  }
  const { type: _type, start: claim, ...run } = command;
  const queued: AgentRunQueued = { type: 'AgentRunQueued', data: { ...run, createdAt } };
  if (!claim) return [queued];
  const started = start(agentRunDecider.evolve(null, queued)!, { type: 'StartAgentRun', ...claim }, createdAt);
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

function endedData(state: AgentRunAggregate, usage: Usage | null, attempts: number, endedAt: string): Ended {
  const { id: runId, agentId, model, workflowRunId, stepIndex, threadId } = state;
  return {
    runId,
    agentId,
    ...(model ? { model } : {}),
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

/** The task as the model reads it: the text, then the context as JSON when there is one. */
export function taskMessage(task: string, context: Record<string, unknown>): string {
  if (Object.keys(context).length === 0) return task;
  return `${task}\n\nContext (JSON):\n${JSON.stringify(context, null, 2)}`;
}

function ended(state: AgentRunAggregate, status: RunStatus, data: Ended): AgentRunAggregate {
  return {
    ...state,
    status,
    usage: data.usage,
    attempts: data.attempts,
    endedAt: data.endedAt,
    cancelRequested: false,
    pendingApprovals: [],
    waitingSince: null,
  };
}

/** The public view of a run: without who executes it. */
export function toAgentRun({
  executorId: _e,
  heartbeatAt: _h,
  decided: _d,
  waitingSince: _w,
  ...run
}: AgentRunAggregate): AgentRun {
  // Runs recorded before structured output have neither field.
  return {
    ...run,
    outputSchema: run.outputSchema ?? null,
    outputObject: run.outputObject ?? null,
    threadId: run.threadId ?? null,
    replayOf: run.replayOf ?? null,
    pendingApprovals: run.pendingApprovals ?? [],
  };
}
