import type { GuardrailVerdict } from '../guardrails';
import { DomainEvent, eventTypes } from '../../domain/decider';
import { ModelAttempt, RunError, RunSource, Usage } from '../../domain/run';
import {
  AgentRun,
  ApprovalDecision,
  ChildRunRequest,
  ParentRef,
  PendingApproval,
  RunHandoff,
  RunScore,
  RecalledItem,
  RunTrial,
  SupersededBy,
  TurnsSuperseded,
  WorkflowStepRef,
} from './agent-run.state';

/**
 * An ending names the run's agent and model, and the workflow step that made the run and its thread, if any, so
 * the workflow's process manager, the threads, usage and metrics need no look-up.
 */
export type AgentRunEndedData = {
  runId: string;
  /** Absent in endings recorded before cost was counted. */
  agentId?: string;
  /** The model the run called last: after a fallback, the one that answered (or failed last). */
  model?: string;
  /** Present when the run went on to a fallback model: each model it called, its tokens, and why it was left. */
  modelAttempts?: ModelAttempt[];
  usage: Usage | null;
  /** With children: `usage` and theirs (what a parent adds to its own). */
  totalUsage?: Usage | null;
  attempts: number;
  endedAt: string;
  threadId?: string;
  /** A parent that ended (cancelled, failed) while these children had not: they are cancelled with it. */
  openChildren?: string[];
  /** The experiment whose dataset item the run answers. */
  experimentId?: string;
} & Partial<WorkflowStepRef> &
  Partial<ParentRef>;
export type AgentRunQueued = DomainEvent<
  'AgentRunQueued',
  Pick<AgentRun, 'id' | 'agentId' | 'task' | 'context' | 'createdAt'> & {
    model?: string;
    agentVersion?: number;
    outputSchema?: Record<string, unknown>;
    threadId?: string;
    replayOf?: string;
    depth?: number;
    startAgentId?: string;
    source?: RunSource;
    /** The experiment whose dataset item the run answers. */
    experimentId?: string;
    trial?: RunTrial;
    /** The input checks that need no judge ran as it was queued: their verdicts follow it in the same commit. */
    inputChecked?: true;
    /** A thread's turn that cancels the turns open before it (`multitask`): how, and which runs. */
    multitask?: TurnsSuperseded;
  } & Partial<WorkflowStepRef> &
    Partial<ParentRef>
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
  { runId: string; callId: string; tool: string; output?: unknown; error?: string; replayed?: boolean; at: string }
>;
/** A guardrail's verdict: positions and kinds of what it found, never the text (a redacted original is kept nowhere). */
export type AgentRunGuardrailChecked = DomainEvent<
  'AgentRunGuardrailChecked',
  { runId: string; callId?: string; at: string } & GuardrailVerdict
>;
/** The memory items found for the run's task in its agent's namespace and given to the model, best first. */
export type AgentRunRecalled = DomainEvent<
  'AgentRunRecalled',
  { runId: string; namespace: string; items: RecalledItem[]; at: string }
>;
export type AgentRunLeaseRenewed = DomainEvent<
  'AgentRunLeaseRenewed',
  { runId: string; executorId: string; at: string }
>;
export type AgentRunApprovalRequested = DomainEvent<
  'AgentRunApprovalRequested',
  { runId: string; approvals: PendingApproval[]; usage: Usage | null; attempts: number; at: string }
>;
/** The run's calls of other agents started these child runs; it waits for them, holding nothing. */
export type AgentRunChildRunsStarted = DomainEvent<
  'AgentRunChildRunsStarted',
  { runId: string; children: ChildRunRequest[]; usage: Usage | null; attempts: number; at: string }
>;
/**
 * A child run ended: `output` or `error` is the result of the call that started it. `resumed`: nothing else is
 * waited for, and the run is queued again to go on.
 */
export type AgentRunChildRunEnded = DomainEvent<
  'AgentRunChildRunEnded',
  {
    runId: string;
    childRunId: string;
    callId: string;
    tool: string;
    status: 'succeeded' | 'failed' | 'cancelled';
    /** The child's `totalUsage`. */
    usage: Usage | null;
    output?: unknown;
    error?: string;
    resumed: boolean;
    at: string;
  }
>;
/** The conversation went on with another agent: `messages` is exactly what that agent was sent. */
export type AgentRunHandedOff = DomainEvent<
  'AgentRunHandedOff',
  RunHandoff & { runId: string; callId: string; messages: unknown[] }
>;
/** `resumed`: every pending call has its decision, and the run is queued again to go on. */
export type AgentRunApprovalsDecided = DomainEvent<
  'AgentRunApprovalsDecided',
  { runId: string; decisions: ApprovalDecision[]; resumed: boolean; at: string }
>;
export type AgentRunSucceeded = DomainEvent<
  'AgentRunSucceeded',
  AgentRunEndedData & { output: string; outputObject?: unknown; answeredBy?: string }
>;
export type AgentRunFailed = DomainEvent<'AgentRunFailed', AgentRunEndedData & { error: RunError }>;
export type AgentRunCancelRequested = DomainEvent<
  'AgentRunCancelRequested',
  { runId: string; requestedAt: string; supersededBy?: SupersededBy }
>;
export type AgentRunCancelled = DomainEvent<
  'AgentRunCancelled',
  AgentRunEndedData & {
    /** Cancelled by a later turn of its thread. */
    supersededBy?: SupersededBy;
    /** The answer the model had written when it was stopped (only for `interrupt`, which keeps it in the thread). */
    partialOutput?: string;
  }
>;
/** A succeeded run's live scores (its agent's `scorers`, sampled), recorded after it ended. */
export type AgentRunScored = DomainEvent<'AgentRunScored', { runId: string; agentId: string; scores: RunScore[] }>;
export type AgentRunEvent =
  | AgentRunQueued
  | AgentRunStarted
  | AgentRunToolCalled
  | AgentRunToolReturned
  | AgentRunGuardrailChecked
  | AgentRunRecalled
  | AgentRunLeaseRenewed
  | AgentRunApprovalRequested
  | AgentRunApprovalsDecided
  | AgentRunChildRunsStarted
  | AgentRunChildRunEnded
  | AgentRunHandedOff
  | AgentRunSucceeded
  | AgentRunFailed
  | AgentRunCancelRequested
  | AgentRunCancelled
  | AgentRunScored;

export const AGENT_RUN_EVENT_TYPES = eventTypes<AgentRunEvent>({
  AgentRunQueued: true,
  AgentRunStarted: true,
  AgentRunToolCalled: true,
  AgentRunToolReturned: true,
  AgentRunGuardrailChecked: true,
  AgentRunRecalled: true,
  AgentRunLeaseRenewed: true,
  AgentRunApprovalRequested: true,
  AgentRunApprovalsDecided: true,
  AgentRunChildRunsStarted: true,
  AgentRunChildRunEnded: true,
  AgentRunHandedOff: true,
  AgentRunSucceeded: true,
  AgentRunFailed: true,
  AgentRunCancelRequested: true,
  AgentRunCancelled: true,
  AgentRunScored: true,
});

/** The events that end an agent run. */
export const AGENT_RUN_ENDINGS = ['AgentRunSucceeded', 'AgentRunFailed', 'AgentRunCancelled'] as const;

/**
 * Whether a run's ending adds its turn to its thread: a success, or a cancel by a later turn's `interrupt`
 * (a failure, or any other cancel, adds nothing).
 */
export function keepsTurn(event: { type: string; data: Record<string, unknown> }): boolean {
  if (event.type === 'AgentRunSucceeded') return true;
  const { supersededBy } = event.data as AgentRunCancelled['data'];
  return event.type === 'AgentRunCancelled' && supersededBy?.strategy === 'interrupt';
}

export const agentRunStream = (runId: string) => `agentrun-${runId}`;
