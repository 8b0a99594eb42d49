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

/** A read database holding the given runs (with the steps that wait, for workflow runs), as the projections leave it. */
function readDatabase(table: string, runs: Array<[string, string, number[]?]>): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, status TEXT NOT NULL, doc TEXT NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${table} (id, status, doc) VALUES (?, ?, ?)`);
  for (const [id, status, waiting = []] of runs) {
    const steps = [0, 1, 2].map((index) => ({ index, status: waiting.includes(index) ? 'waiting' : 'running' }));
    insert.run(id, status, JSON.stringify({ steps }));
  }
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
        ['wfrun_1', 'waiting', [1]],
        ['wfrun_2', 'succeeded'],
      ]),
    );
    expect(Object.fromEntries(counts.entries())).toEqual({ waiting: 1, succeeded: 1 });
    const run = 'workflowrun-wfrun_1';
    // Another branch's step ends: step 1 still waits.
    counts.apply([event(run, 'WorkflowStepEnded', { index: 0 })]);
    expect(Object.fromEntries(counts.entries())).toEqual({ waiting: 1, succeeded: 1 });
    counts.apply([event(run, 'WorkflowStepEnded', { index: 1 }), event(run, 'WorkflowStepEnded', { index: 1 })]);
    expect(Object.fromEntries(counts.entries())).toEqual({ running: 1, succeeded: 1 });
    counts.apply([event(run, 'WorkflowRunSucceeded')]);
    expect(Object.fromEntries(counts.entries())).toEqual({ succeeded: 2 });
  });

  it('keeps a workflow run waiting while any of its branches waits for a person', () => {
    const counts = RunStatusCounts.of('workflow_runs');
    counts.load(readDatabase('workflow_runs', []));
    const run = 'workflowrun-wfrun_1';
    const after = (...events: RecordedEvent[]) => {
      counts.apply(events);
      return Object.fromEntries(counts.entries());
    };
    expect(after(event(run, 'WorkflowRunQueued'), event(run, 'WorkflowRunStarted'))).toEqual({ running: 1 });
    expect(after(event(run, 'WorkflowApprovalRequested', { index: 0 }))).toEqual({ waiting: 1 });
    expect(after(event(run, 'WorkflowApprovalRequested', { index: 2 }))).toEqual({ waiting: 1 });
    // A third branch's agent step ends: two steps still wait.
    expect(after(event(run, 'WorkflowStepEnded', { index: 1 }))).toEqual({ waiting: 1 });
    expect(after(event(run, 'WorkflowStepEnded', { index: 0 }))).toEqual({ waiting: 1 });
    expect(after(event(run, 'WorkflowStepEnded', { index: 2 }))).toEqual({ running: 1 });
    expect(after(event(run, 'WorkflowRunSucceeded'))).toEqual({ succeeded: 1 });
  });
});
