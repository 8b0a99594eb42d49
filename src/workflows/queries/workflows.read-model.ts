import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../http/paging';
import { READ_DATABASE } from '../../read-models/read-database';
import { Workflow } from '../workflow';
import { WorkflowRun } from '../workflow-run';

export type WorkflowSummary = Pick<Workflow, 'id' | 'name' | 'status' | 'lastRun' | 'trigger' | 'createdAt'>;

interface WorkflowRow {
  id: string;
  name: string;
  status: Workflow['status'];
  trigger: string;
  steps: string;
  last_run: string | null;
  created_at: string;
}

interface WorkflowRunRow {
  id: string;
  workflow_id: string;
  status: WorkflowRun['status'];
  input: string;
  trigger: string;
  created_at: string;
}

function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS workflows (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL,
      steps TEXT NOT NULL, last_run TEXT, created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS workflow_runs (
      id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,
      trigger TEXT NOT NULL, created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS workflow_runs_by_workflow ON workflow_runs (workflow_id, id);
  `);
  return {
    upsertWorkflow: db.prepare(
      `INSERT OR REPLACE INTO workflows (id, name, status, trigger, steps, last_run, created_at)
       VALUES (@id, @name, @status, @trigger, @steps, @lastRun, @createdAt)`,
    ),
    setLastRun: db.prepare<[string, string]>('UPDATE workflows SET last_run = ? WHERE id = ?'),
    upsertRun: db.prepare(
      `INSERT OR REPLACE INTO workflow_runs (id, workflow_id, status, input, trigger, created_at)
       VALUES (@id, @workflowId, @status, @input, @trigger, @createdAt)`,
    ),
    list: db.prepare<[string, number], WorkflowRow>('SELECT * FROM workflows WHERE id > ? ORDER BY id LIMIT ?'),
    get: db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE id = ?'),
    listRuns: db.prepare<[string, string, number], WorkflowRunRow>(
      'SELECT * FROM workflow_runs WHERE workflow_id = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    getRun: db.prepare<[string, string], WorkflowRunRow>(
      'SELECT * FROM workflow_runs WHERE id = ? AND workflow_id = ?',
    ),
  };
}

/** The `workflows` and `workflow_runs` tables: written by WorkflowsProjection, read by the workflow queries. */
@Injectable()
export class WorkflowsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  saveWorkflow(workflow: Workflow): void {
    this.statements.upsertWorkflow.run({
      ...workflow,
      trigger: JSON.stringify(workflow.trigger),
      steps: JSON.stringify(workflow.steps),
    });
  }

  setLastRun(workflowId: string, at: string): void {
    this.statements.setLastRun.run(at, workflowId);
  }

  saveRun(run: WorkflowRun): void {
    this.statements.upsertRun.run({ ...run, input: JSON.stringify(run.input), trigger: JSON.stringify(run.trigger) });
  }

  list(after: string, limit: number): Page<WorkflowSummary> {
    return toPage(
      this.statements.list.all(after, limit + 1).map((row) => {
        const { steps: _steps, ...summary } = toWorkflow(row);
        return summary;
      }),
      limit,
    );
  }

  get(id: string): Workflow | undefined {
    const row = this.statements.get.get(id);
    return row && toWorkflow(row);
  }

  listRuns(workflowId: string, after: string, limit: number): Page<WorkflowRun> {
    return toPage(this.statements.listRuns.all(workflowId, after, limit + 1).map(toRun), limit);
  }

  getRun(workflowId: string, runId: string): WorkflowRun | undefined {
    const row = this.statements.getRun.get(runId, workflowId);
    return row && toRun(row);
  }
}

function toWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: JSON.parse(row.trigger),
    steps: JSON.parse(row.steps),
    lastRun: row.last_run,
    createdAt: row.created_at,
  };
}

function toRun(row: WorkflowRunRow): WorkflowRun {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    status: row.status,
    input: JSON.parse(row.input),
    trigger: JSON.parse(row.trigger),
    createdAt: row.created_at,
  };
}
