import Database from 'better-sqlite3';
import { RecordedEvent } from '../event-store/event-store';
import { RunStatusCounts } from './run-status-counts';

let position = 0n;
const event = (stream: string, type: string, data: Record<string, unknown> = {}): RecordedEvent => ({
  id: `event-${++position}`,
  type,
  data,
  metadata: { schemaVersion: 1 },
  stream,
  revision: 0n,
  position,
  recordedAt: new Date(0),
});

/** A read database holding the given runs, as the projections leave it. */
function readDatabase(table: string, runs: Array<[string, string]>): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, status TEXT NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${table} (id, status) VALUES (?, ?)`);
  for (const run of runs) insert.run(...run);
  return db;
}

describe('runs by status, kept as events are applied', () => {
  it('follows an agent run through a wait for approval and back', () => {
    const counts = RunStatusCounts.of('agent_runs');
    counts.load(readDatabase('agent_runs', []));
    const run = 'agentrun-agentrun_1';
    const after = (...events: RecordedEvent[]) => {
      counts.apply(events);
      return Object.fromEntries(counts.entries());
    };
    expect(after(event(run, 'AgentRunQueued'), event(run, 'AgentRunStarted'))).toEqual({ running: 1 });
    expect(after(event(run, 'AgentRunApprovalRequested'))).toEqual({ waiting: 1 });
    // One call of two decided: still waiting.
    expect(after(event(run, 'AgentRunApprovalsDecided', { resumed: false }))).toEqual({ waiting: 1 });
    expect(after(event(run, 'AgentRunApprovalsDecided', { resumed: true }))).toEqual({ queued: 1 });
    expect(after(event(run, 'AgentRunStarted'), event(run, 'AgentRunSucceeded'))).toEqual({ succeeded: 1 });
    // An event for a run that ended moves nothing.
    expect(after(event(run, 'AgentRunStarted'), event(run, 'AgentRunFailed'))).toEqual({ succeeded: 1 });
  });

  it('moves a run that was waiting when the counts were loaded', () => {
    const counts = RunStatusCounts.of('workflow_runs');
    counts.load(
      readDatabase('workflow_runs', [
        ['wfrun_1', 'waiting'],
        ['wfrun_2', 'succeeded'],
      ]),
    );
    expect(Object.fromEntries(counts.entries())).toEqual({ waiting: 1, succeeded: 1 });
    const run = 'workflowrun-wfrun_1';
    counts.apply([event(run, 'WorkflowStepEnded'), event(run, 'WorkflowStepEnded')]);
    expect(Object.fromEntries(counts.entries())).toEqual({ running: 1, succeeded: 1 });
    counts.apply([event(run, 'WorkflowRunSucceeded')]);
    expect(Object.fromEntries(counts.entries())).toEqual({ succeeded: 2 });
  });
});
