import type { GuardrailCheck, GuardrailVerdict } from '../guardrails';
import { ModelAttempt, RunError, RunSource, Usage } from '../../domain/run';
import {
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
  /** A child run's place in its tree: 0 (absent) for a run of its own. */
  depth?: number;
  /** A thread's turn that begins with another agent than the thread's. */
  startAgentId?: string;
  /** The protocol session the run was asked for in, if not the HTTP API. */
  source?: RunSource;
  /** The experiment whose dataset item the run answers. */
  experimentId?: string;
  /** How the experiment runs it: the agent at `agentVersion`, overrides, recorded tool results. */
  trial?: RunTrial;
  /** The local executor has a free slot: the run is queued and claimed (started) in one commit. */
  start?: Omit<StartAgentRun, 'type'>;
  /** The agent's input guardrails: those that need no judge run on the task as it is queued. */
  inputChecks?: GuardrailCheck[];
  /** A thread's turn that cancels the turns open before it. */
  multitask?: TurnsSuperseded;
} & Partial<WorkflowStepRef> &
  Partial<ParentRef>;
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
  /** In a trial replaying a recorded run: whether the result is the recorded one. */
  replayed?: boolean;
};
/** What a guardrail check made of the task, the answer or a tool's result (`callId`). */
/**
 * The memory items found for the run's task in its namespace, given to the model (perhaps none); with `then`, in
 * the commit of the run's next command (one commit fewer before its answer). Recorded once: a repeat is passed over.
 */
export type RecordRecall = {
  type: 'RecordRecall';
  executorId: string;
  namespace: string;
  items: RecalledItem[];
  then?: Exclude<AgentRunCommand, RecordRecall>;
};
export type RecordGuardrailVerdict = {
  type: 'RecordGuardrailVerdict';
  executorId: string;
  verdict: GuardrailVerdict;
  callId?: string;
};
export type RenewRunLease = { type: 'RenewRunLease'; executorId: string };
/**
 * The executor stops at calls that need a person, or that start runs of other agents (children): the run waits,
 * holding nothing, until every call is decided and every child has ended.
 */
export type Wait = {
  type: 'Wait';
  executorId: string;
  approvals: Array<Omit<PendingApproval, 'requestedAt'>>;
  children: ChildRunRequest[];
  usage: Usage | null;
  attempts: number;
};
/** The model called a `transfer_to_<name>` tool: the run goes on with that agent, sent `messages`. */
export type HandOff = {
  type: 'HandOff';
  executorId: string;
  callId: string;
  handoff: Omit<RunHandoff, 'at'>;
  messages: unknown[];
};
/** A child run ended: its outcome is the result of the call that started it. */
export type EndChildRun = {
  type: 'EndChildRun';
  childRunId: string;
  outcome: { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true };
  /** The child's `totalUsage`. */
  usage: Usage | null;
  /** A free slot of the local executor: should this child be the last to end, the run is resumed and claimed. */
  start?: Omit<StartAgentRun, 'type'>;
};
export type DecideApprovals = { type: 'DecideApprovals'; decisions: ApprovalDecision[] };
/** Fails a run that has waited since before `before`. */
export type ExpireApprovals = { type: 'ExpireApprovals'; before: string; timeoutMs: number };
export type EndAgentRun = {
  type: 'EndAgentRun';
  executorId: string;
  /** Cancelled: with the answer written so far, when the model had begun one. */
  outcome:
    { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true; partialOutput?: string };
  usage: Usage | null;
  attempts: number;
  /** When the run went on to a fallback model: each model it called, in order (the last is the one that answered). */
  modelAttempts?: ModelAttempt[];
  /** After handoffs: the agent whose answer it is. */
  answeredBy?: string;
};
/** `supersededBy`: the cancel is a later turn's of the run's thread (its `multitask`). */
export type CancelAgentRun = { type: 'CancelAgentRun'; supersededBy?: SupersededBy };
/** Records a succeeded run's live scores; a scorer that has scored the run already is left out. */
export type ScoreAgentRun = { type: 'ScoreAgentRun'; scores: Array<Omit<RunScore, 'at'>> };
/** Ends a run whose executor stopped renewing its lease before `staleBefore`. */
export type InterruptAgentRun = { type: 'InterruptAgentRun'; staleBefore: string };
export type AgentRunCommand =
  | QueueAgentRun
  | StartAgentRun
  | RecordToolCall
  | RecordRecall
  | RecordToolResult
  | RecordGuardrailVerdict
  | RenewRunLease
  | Wait
  | EndChildRun
  | HandOff
  | DecideApprovals
  | ExpireApprovals
  | EndAgentRun
  | CancelAgentRun
  | InterruptAgentRun
  | ScoreAgentRun;
