import type Database from 'better-sqlite3';
import { dropForRebuild, tableColumns } from '../../read-models/read-database';
import { Workflow } from '../workflow/workflow.state';
import { WorkflowRunAggregate } from '../workflow-run/workflow-run.state';

/** A row of `workflows`: the workflow, and what the scheduler needs of it. */
export interface WorkflowRow {
  id: string;
  name: string;
  status: Workflow['status'];
  trigger: string;
  steps: string;
  output_step: string | null;
  last_run: string | null;
  version: number;
  created_at: string;
  last_scheduled_for: string | null;
  active_since: string;
  /** `{overlap?, maxConcurrentRuns?, concurrency?}` as JSON; null: the defaults. */
  policy: string | null;
  /** The `inputSchema` as JSON; null: none. */
  input_schema: string | null;
}

/** A row of `workflow_runs`: the run as JSON, but for its input (JSON too). */
export interface WorkflowRunRow {
  workflow_id: string;
  stream_opened: number;
  doc: string;
  input: string;
}

/**
 * A run as `workflow_runs.doc` keeps it: its input, free-form JSON of up to a body's size, is in a column of its
 * own, written once when the run is added and read only to show the run, so that the many events of a run's life
 * neither parse nor rewrite it. The document keeps the key (as null) so that the run shows its fields in their
 * usual order.
 */
export type StoredWorkflowRun = Omit<WorkflowRunAggregate, 'input'> & { input: null };

/**
 * A read model from before the schedule columns, the run-stream flag, versions, steps as a graph (`output_step`,
 * and run documents with attempts) or inputs of their own is dropped and rebuilt from the log; the `policy` and
 * `input_schema` columns are added in place (no workflow recorded before them has one). Run documents written before
 * steps kept their `skipReason` stay without it until the read model is rebuilt.
 */
function migrate(db: Database.Database): void {
  const columns = (table: string) => tableColumns(db, table);
  const workflows = columns('workflows');
  const runs = columns('workflow_runs');
  const current =
    workflows.includes('active_since') &&
    workflows.includes('version') &&
    workflows.includes('output_step') &&
    runs.includes('doc') &&
    runs.includes('input');
  if (current && !workflows.includes('policy')) db.exec('ALTER TABLE workflows ADD COLUMN policy TEXT');
  if (current && !workflows.includes('input_schema')) db.exec('ALTER TABLE workflows ADD COLUMN input_schema TEXT');
  if (workflows.length === 0 || current) return;
  dropForRebuild(db, 'workflows', ['workflows', 'workflow_runs']);
}

/** Creates the `workflows` and `workflow_runs` tables, after dropping ones of an older shape. */
export function createWorkflowTables(db: Database.Database): void {
  migrate(db);
  db.exec(`
    CREATE TABLE IF NOT EXISTS workflows (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL,
      steps TEXT NOT NULL, output_step TEXT, last_run TEXT, version INTEGER NOT NULL, created_at TEXT NOT NULL,
      last_scheduled_for TEXT, active_since TEXT NOT NULL, policy TEXT, input_schema TEXT
    );
    CREATE TABLE IF NOT EXISTS workflow_runs (
      id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL,
      stream_opened INTEGER NOT NULL DEFAULT 0, doc TEXT NOT NULL, input TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX IF NOT EXISTS workflow_runs_by_workflow ON workflow_runs (workflow_id, id);
    CREATE INDEX IF NOT EXISTS workflow_runs_by_workflow_status ON workflow_runs (workflow_id, status, id);
    CREATE INDEX IF NOT EXISTS workflow_runs_unopened ON workflow_runs (created_at) WHERE stream_opened = 0;
    CREATE INDEX IF NOT EXISTS workflows_scheduled ON workflows (id)
      WHERE status = 'active' AND json_extract(trigger, '$.type') = 'schedule';
  `);
}
