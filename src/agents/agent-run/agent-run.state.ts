import type { GuardrailVerdict } from '../guardrails';
import { ModelAttempt, RunError, RunSource, RunStatus, Usage } from '../../domain/run';

export interface ToolCall {
  id: string;
  /** The tool's id, e.g. `current_time` or `mcp:files/read`. */
  tool: string;
  input: unknown;
  output?: unknown;
  error?: string;
  /** In a trial replaying a recorded run: true when the result is the recorded one, false when the tool ran. */
  replayed?: boolean;
  startedAt: string;
  endedAt: string | null;
}

/** A live score of a succeeded run, by one of its agent's scorers (an agent's `scorers`, sampled). */
export interface RunScore {
  scorer: string;
  scorerId: string;
  score: number;
  reason?: string;
  /** A judge's score: the judge's own run. */
  judgeRunId?: string;
  at: string;
}

/**
 * How an experiment runs its item: the agent as it was at the run's `agentVersion`, with `overrides` (a merge patch
 * of its definition, never saved) applied, and with `recordedFrom`, the tool results of that run given back for
 * the same calls instead of calling the tools again.
 */
export interface RunTrial {
  overrides: Record<string, unknown> | null;
  recordedFrom: string | null;
}

/** A tool call that waits for a person's decision. */
export interface PendingApproval {
  toolCallId: string;
  tool: string;
  args: unknown;
  requestedAt: string;
  /** As runs show it: the run whose call it is (this run's own, or a descendant's), and its agent. */
  runId?: string;
  agentId?: string;
}

/** A person's decision on a pending call: `args` replaces the call's arguments when approving. */
export interface ApprovalDecision {
  toolCallId: string;
  decision: 'approve' | 'reject';
  reason?: string;
  args?: unknown;
}

/** A call of another agent that started a run of it, a child of this run. */
export interface ChildRunRequest {
  runId: string;
  agentId: string;
  /** The agent's name when it was called (the tool was `agent:<name>`). */
  agent: string;
  toolCallId: string;
  task: string;
  context: Record<string, unknown>;
  /** The call's `execute_tool` span, which the child's run continues. */
  traceparent?: string;
}

/** A child run as its parent knows it: `status` is `queued` until its end is recorded on the parent. */
export interface ChildRun {
  runId: string;
  agentId: string;
  agent: string;
  toolCallId: string;
  status: RunStatus;
}

/** The place of a run in a tree of runs: set on a child run, started by its parent's call of its agent. */
export interface ParentRef {
  parentRunId: string;
  parentToolCallId: string;
}

/** The run went on with another agent: `from` handed the conversation to `to` (agent ids, with their names). */
export interface RunHandoff {
  from: string;
  fromName: string;
  to: string;
  toName: string;
  input: 'all' | 'last_user' | 'summary';
  at: string;
}

/** Set when a workflow step made the run. */
export interface WorkflowStepRef {
  workflowRunId: string;
  stepIndex: number;
}

export type RunGuardrailVerdict = GuardrailVerdict & { callId?: string; at: string };

/**
 * What `POST /v1/threads/{id}/runs` does when the thread has a turn still open (as LangGraph's multitask
 * strategies): `enqueue` runs the new turn after it, `reject` refuses the new one, `interrupt` cancels the open turns
 * and keeps what they had said in the thread, marked interrupted, and `rollback` cancels them and keeps nothing.
 */
export type Multitask = 'enqueue' | 'reject' | 'interrupt' | 'rollback';
export const MULTITASK_STRATEGIES: readonly Multitask[] = ['enqueue', 'reject', 'interrupt', 'rollback'];

/** A memory item a run was given before it began (its agent's `memory.recall`): the version, and its score. */
export interface RecalledItem {
  namespace: string;
  key: string;
  version: number;
  score: number;
}

/** A thread's turn that cancelled the turns open before it: how, and which runs. */
export interface TurnsSuperseded {
  strategy: 'interrupt' | 'rollback';
  runIds: string[];
}

/** The later turn of the thread that cancelled this run, and how (its `multitask`). */
export interface SupersededBy {
  runId: string;
  strategy: 'interrupt' | 'rollback';
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
  /** The MCP session or A2A conversation the run was asked for in; null for a run asked for over HTTP. */
  source: RunSource | null;
  /** The experiment whose dataset item the run answers; null for a run of its own. */
  experimentId: string | null;
  /** How the experiment runs it (a pinned version, overrides, recorded tool results); null for a run of its own. */
  trial: RunTrial | null;
  /** The run whose call of this agent started this one, and that call; null for a run of its own. */
  parentRunId: string | null;
  parentToolCallId: string | null;
  /** How far down a tree of runs it is: 0 for a run of its own, its parent's depth + 1 for a child. */
  depth: number;
  /** The runs its calls of other agents started, in the order they were called. */
  children: ChildRun[];
  /** While `waiting`: the children it waits for. */
  waitingOn: Array<Pick<ChildRun, 'runId' | 'agent'>>;
  /** `usage` and the `totalUsage` of every child that has ended, cost included. */
  totalUsage: Usage | null;
  /** Each time the conversation was handed to another agent, in order. */
  handoffs: RunHandoff[];
  /** The agent whose answer is the output (after handoffs, the last one's); null until the run succeeds. */
  answeredBy: string | null;
  /** A thread's turn begins with this agent (the one that answered the turn before, or the one asked for). */
  startAgentId: string | null;
  /** Its live scores, once it has succeeded and been sampled: one per scorer at most. */
  scores: RunScore[];
  cancelRequested: boolean;
  /** A thread's turn that interrupted or rolled back the turns open before it; absent or null for the others. */
  multitask?: TurnsSuperseded | null;
  /** Cancelled by a later turn of its thread (`interrupt` or `rollback`); absent or null for the others. */
  supersededBy?: SupersededBy | null;
  /** The memory items it was given (its agent's `memory.recall`), in order; absent or null: none looked for. */
  recalled?: RecalledItem[] | null;
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
  /** When it began to wait for a decision (the approval timeout counts from here). */
  waitingSince: string | null;
  /** The `totalUsage` of the children that have ended, added up. */
  childrenUsage: Usage | null;
  /** After a handoff: what the agent handed to was sent, and how many tool calls came before (a resume goes on from it). */
  lastHandoff: { messages: unknown[]; toolCallsBefore: number } | null;
  /** The input checks that need no judge ran as the run was queued (its task is recorded as they left it). */
  inputChecked?: boolean;
}

export type AgentRunState = AgentRunAggregate | null;
