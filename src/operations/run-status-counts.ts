import type Database from 'better-sqlite3';
import { RUN_STATUSES, RunStatus } from '../domain/run';
import { RecordedEvent } from '../event-store/event-store';

/** Statuses a run leaves again: the runs in them are remembered, so that an event knows what it moves a run from. */
const UNFINISHED: readonly RunStatus[] = ['queued', 'running', 'waiting'];

/**
 * The status an event moves a run to from `before` (undefined: a run not seen yet), or undefined: no move.
 * `waiting` holds the run's steps that wait for a person (workflow runs), kept by the moves themselves.
 */
type StatusAfter = (event: RecordedEvent, before: RunStatus | undefined, waiting: Set<number>) => RunStatus | undefined;

/** A run not ended: its status, and (workflow runs) its steps that wait for a person. */
interface RunInFlight {
  status: RunStatus;
  waiting: Set<number>;
}

/** The runs of one kind: their table, their streams' category, and the status each of their events moves them to. */
interface RunKind {
  table: 'agent_runs' | 'workflow_runs';
  streamPrefix: string;
  statusAfter: StatusAfter;
  /** The steps that wait, from a run's document in the read model (`doc`), for a run loaded waiting. */
  waitingStepsOf?: (doc: string) => number[];
}

/** Moves by event type: the opening event counts a run once; the others move only a run still unfinished. */
function moves(opening: string, others: Record<string, StatusAfter | RunStatus>): StatusAfter {
  return (event, before, waiting) => {
    if (event.type === opening) return before === undefined ? 'queued' : undefined;
    const move = others[event.type];
    if (before === undefined || move === undefined) return undefined;
    return typeof move === 'function' ? move(event, before, waiting) : move;
  };
}

const KINDS = {
  agent_runs: {
    table: 'agent_runs',
    streamPrefix: 'agentrun-',
    statusAfter: moves('AgentRunQueued', {
      AgentRunStarted: 'running',
      AgentRunApprovalRequested: 'waiting',
      // Queued again once every pending call has a decision.
      AgentRunApprovalsDecided: (event, before) => (before === 'waiting' && event.data.resumed ? 'queued' : undefined),
      AgentRunSucceeded: 'succeeded',
      AgentRunFailed: 'failed',
      AgentRunCancelled: 'cancelled',
    }),
  },
  workflow_runs: {
    table: 'workflow_runs',
    streamPrefix: 'workflowrun-',
    statusAfter: moves('WorkflowRunQueued', {
      WorkflowRunStarted: 'running',
      WorkflowApprovalRequested: (event, _before, waiting) => (waiting.add(event.data.index as number), 'waiting'),
      // A decision at an approval step ends the step; the run goes on once no other branch waits for a person.
      WorkflowStepEnded: (event, before, waiting) => {
        if (before !== 'waiting') return undefined;
        waiting.delete(event.data.index as number);
        return waiting.size === 0 ? 'running' : undefined;
      },
      WorkflowRunSucceeded: 'succeeded',
      WorkflowRunFailed: 'failed',
      WorkflowRunCancelled: 'cancelled',
    }),
    waitingStepsOf: (doc) =>
      (JSON.parse(doc) as { steps: Array<{ index: number; status: string }> }).steps
        .filter((step) => step.status === 'waiting')
        .map((step) => step.index),
  },
} as const satisfies Record<string, RunKind>;

export type RunKindName = keyof typeof KINDS;

/**
 * Runs by status, kept as events are applied rather than counted by a query on each scrape: counted once from the
 * read models (`load`), then moved by each run event; the runs not yet ended are remembered, so that an event
 * knows which status it moves a run from. An event seen twice, or for a run that already ended, moves nothing.
 */
export class RunStatusCounts {
  private readonly counts = new Map<RunStatus, number>();
  private readonly inFlight = new Map<string, RunInFlight>();
  private loaded = false;

  constructor(private readonly kind: RunKind) {}

  static of(name: RunKindName): RunStatusCounts {
    return new RunStatusCounts(KINDS[name]);
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Counts the runs the read models hold now; the events applied from then on move the counts. */
  load(db: Database.Database): void {
    const { table, streamPrefix } = this.kind;
    this.counts.clear();
    this.inFlight.clear();
    const byStatus = db.prepare<[], { status: RunStatus; count: number }>(
      `SELECT status, count(*) AS count FROM ${table} GROUP BY status`,
    );
    for (const { status, count } of byStatus.all()) this.counts.set(status, count);
    const unfinished = db.prepare<[], { id: string; status: RunStatus }>(
      `SELECT id, status FROM ${table} WHERE status IN (${UNFINISHED.map((status) => `'${status}'`).join(', ')})`,
    );
    for (const { id, status } of unfinished.all()) this.inFlight.set(streamPrefix + id, { status, waiting: new Set() });
    const { waitingStepsOf } = this.kind;
    if (waitingStepsOf) {
      const waiting = db.prepare<[], { id: string; doc: string }>(
        `SELECT id, doc FROM ${table} WHERE status = 'waiting'`,
      );
      for (const { id, doc } of waiting.all())
        for (const index of waitingStepsOf(doc)) this.inFlight.get(streamPrefix + id)?.waiting.add(index);
    }
    this.loaded = true;
  }

  apply(events: RecordedEvent[]): void {
    if (!this.loaded) return;
    for (const event of events) {
      if (!event.stream.startsWith(this.kind.streamPrefix)) continue;
      const run = this.inFlight.get(event.stream);
      const before = run?.status;
      const status = this.kind.statusAfter(event, before, run?.waiting ?? new Set());
      if (!status || status === before) continue;
      if (before) this.move(before, -1);
      if (!UNFINISHED.includes(status)) this.inFlight.delete(event.stream);
      else if (run) run.status = status;
      else this.inFlight.set(event.stream, { status, waiting: new Set() });
      this.move(status, 1);
    }
  }

  /** Each status with its count (statuses with none left out, as the GROUP BY did). */
  entries(): Array<[RunStatus, number]> {
    return RUN_STATUSES.filter((status) => (this.counts.get(status) ?? 0) > 0).map((status) => [
      status,
      this.counts.get(status)!,
    ]);
  }

  private move(status: RunStatus, by: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + by);
  }
}
