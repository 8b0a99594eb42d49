import type { GuardrailVerdict } from '../guardrails';
import { ModelAttempt, RunError, RunStatus, Usage } from '../../domain/run';

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

export type RunGuardrailVerdict = GuardrailVerdict & { callId?: string; at: string };

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
  /** When the run went on to a fallback model: each model it called, in order; empty otherwise. */
  modelAttempts: ModelAttempt[];
  /** The model whose answer is the output; null until the run succeeds. */
  answeredModel: string | null;
  /** Every guardrail verdict on the task, the answer and the tool results, in order. */
  guardrails: RunGuardrailVerdict[];
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
