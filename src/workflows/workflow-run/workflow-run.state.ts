import { RunError, RunSource, RunStatus } from '../../domain/run';
import { StepCondition } from '../step-condition';
import {
  ItemErrorPolicy,
  MapOver,
  ParentRun,
  ReplayOf,
  RunTrigger,
  StepContextOption,
  StepRepeat,
  StepRetry,
} from '../workflow/workflow.state';

export type StepStatus = 'pending' | RunStatus | 'skipped';
export const SKIP_REASONS = ['condition_false', 'needs_skipped'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** One attempt of an agent step (or an iteration of a repeating one): an agent run of its own. */
export interface StepAttempt {
  runId: string;
  status: RunStatus;
  error: RunError | null;
  /** A repeating step's iteration that succeeded: its answer. */
  output?: string;
}

/**
 * One item of a map step: its agent run, the task it got, and how it ended (`skipped`: the step ended before it
 * started).
 */
export interface MapItem {
  index: number;
  status: StepStatus;
  agentRunId: string | null;
  task: string | null;
  missing?: string[];
  output: string | null;
  outputObject?: unknown;
  error: RunError | null;
}

export interface WorkflowRunStep {
  index: number;
  /** The step's id (its position when the workflow names none), and the ids of the steps it waits for. */
  id: string;
  needs: string[];
  when?: StepCondition;
  retry?: StepRetry;
  repeat?: StepRepeat;
  /** An agent step's attempts (a repeating step's iterations), each an agent run, in order. */
  attempts?: StepAttempt[];
  /** A replay took this step's output from the run it replays, without running it. */
  reused?: boolean;
  /** An agent step's agent and action; null for an approval step. */
  agent: string | null;
  action: string | null;
  /** An approval step: the text shown to the approver, and how long it may wait. */
  approval?: string;
  timeoutMs?: number;
  /** A wait step: the signal it waits for (`key` a template), and how long it may wait. */
  wait?: { signal: string; key?: string; timeoutMs?: number };
  /** A sleep step: for how long, or until when (a template). */
  sleep?: { ms: number } | { until: string };
  /**
   * A wait step once it waits: the signal's name, its key filled in (null: any key), when the wait times out (null:
   * never), and the signal that ended it.
   */
  /** `attempt`: the wait's, from 1 (each time-out its `retry` allows begins another). */
  awaiting?: { signal: string; key: string | null; timeoutAt: string | null; attempt?: number; signalId?: string };
  /** A sleep step once it sleeps: when it wakes. */
  wakeAt?: string;
  /**
   * A workflow step: the workflow it runs (by name) and its input as defined; once started, the input it gave
   * (templates filled in) and its current child run.
   */
  workflow?: string;
  input?: Record<string, unknown>;
  sentInput?: Record<string, unknown>;
  childRunId?: string | null;
  /** A map step: the list it runs over, what a failed item does, and its items once it has started. */
  map?: MapOver;
  onItemError?: ItemErrorPolicy;
  items?: MapItem[];
  /** What the step's agent run gets besides its task; absent: nothing. */
  context?: StepContextOption;
  /** The task sent to the step's agent: its action with the placeholders filled in; null until it starts. */
  task: string | null;
  /** The placeholders of the action whose path led nowhere (`input.topc`), left empty in `task`; absent: none. */
  missing?: string[];
  status: StepStatus;
  /**
   * Why a skipped step did not run: its `when` was false, or every step it needs was skipped. Absent from a step
   * skipped because the run ended before it was reached.
   */
  skipReason?: SkipReason;
  agentRunId: string | null;
  output: string | null;
  /** The step's structured answer, when its agent run had an `outputSchema`. */
  outputObject?: unknown;
  error: RunError | null;
  startedAt: string | null;
  endedAt: string | null;
}

/**
 * How an experiment runs its item on a workflow: its steps as they were at the run's `workflowVersion`, with
 * `overrides` (a merge patch of the definition, never saved) applied, and with `recordedFrom`, a workflow run whose
 * steps' tool results are given back to the same steps for the same calls instead of calling the tools again.
 */
export interface WorkflowRunTrial {
  overrides: Record<string, unknown> | null;
  recordedFrom: string | null;
}

export interface WorkflowRun {
  id: string;
  workflowId: string;
  status: RunStatus;
  input: Record<string, unknown>;
  trigger: RunTrigger;
  /**
   * The workflow's version when the run was queued, then the version whose steps it runs once it has started;
   * null for runs recorded before versions.
   */
  workflowVersion: number | null;
  /** The workflow's steps as they were when the run started; empty while it is queued. */
  steps: WorkflowRunStep[];
  /** The output of the last step by position among those that ran. */
  output: string | null;
  /** Present on a replay. */
  replayOf?: ReplayOf;
  /** Present on a run asked for in an MCP session (or another protocol), not over HTTP. */
  source?: RunSource;
  /** Present on a child run: the run, and its step (by id), that started it. */
  parentRunId?: string;
  parentStep?: string;
  /** Present on a run of an experiment's dataset item: the experiment, and how it tries the workflow. */
  experimentId?: string;
  trial?: WorkflowRunTrial;
  error: RunError | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface WorkflowRunAggregate extends WorkflowRun {
  workflowName: string;
  outputStep?: string;
  /** The most items a map step may run over, as the run was started with (absent: the default, 1,000). */
  maxMapItems?: number;
  /** A child run: its parent, and how deep it is. */
  parent?: ParentRun;
  /** How deep child runs may nest, as the run was started with (absent: the default, 4). */
  maxDepth?: number;
}

export type WorkflowRunState = WorkflowRunAggregate | null;
