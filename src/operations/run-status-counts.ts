import type Database from 'better-sqlite3';
import { RUN_STATUSES, RunStatus } from '../domain/run';
import { RecordedEvent } from '../event-store/event-store';

/** Statuses a run leaves again: the runs in them are remembered, so that an event knows what it moves a run from. */
const UNFINISHED: readonly RunStatus[] = ['queued', 'running', 'waiting'];

/** The status an event moves a run to from `before` (undefined: a run not seen yet), or undefined: no move. */
type StatusAfter = (event: RecordedEvent, before: RunStatus | undefined) => RunStatus | undefined;

/** The runs of one kind: their table, their streams' category, and the status each of their events moves them to. */
interface RunKind {
  table: 'agent_runs' | 'workflow_runs';
  streamPrefix: string;
  statusAfter: StatusAfter;
}

/** Moves by event type: the opening event counts a run once; the others move only a run still unfinished. */
function moves(opening: string, others: Record<string, StatusAfter | RunStatus>): StatusAfter {
  return (event, before) => {
    if (event.type === opening) return before === undefined ? 'queued' : undefined;
    const move = others[event.type];
    if (before === undefined || move === undefined) return undefined;
    return typeof move === 'function' ? move(event, before) : move;
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
      WorkflowApprovalRequested: 'waiting',
      // A decision at an approval step ends the step, and the run goes on.
      WorkflowStepEnded: (_event, before) => (before === 'waiting' ? 'running' : undefined),
      WorkflowRunSucceeded: 'succeeded',
      WorkflowRunFailed: 'failed',
      WorkflowRunCancelled: 'cancelled',
    }),
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
  private readonly inFlight = new Map<string, RunStatus>();
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
    for (const { id, status } of unfinished.all()) this.inFlight.set(streamPrefix + id, status);
    this.loaded = true;
  }

  apply(events: RecordedEvent[]): void {
    if (!this.loaded) return;
    for (const event of events) {
      if (!event.stream.startsWith(this.kind.streamPrefix)) continue;
      const before = this.inFlight.get(event.stream);
      const status = this.kind.statusAfter(event, before);
      if (!status || status === before) continue;
      if (before) this.move(before, -1);
      if (UNFINISHED.includes(status)) this.inFlight.set(event.stream, status);
      else this.inFlight.delete(event.stream);
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
