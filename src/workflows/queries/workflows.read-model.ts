import { RunPolicy } from '../../domain/run-slots';
import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../read-models/page';
import { DefinitionListFilter, DefinitionPages } from '../../read-models/definition-list-filter';
import { BatchRows } from '../../read-models/batch-rows';
import { READ_DATABASE } from '../../read-models/read-database';
import { Workflow, WorkflowAggregate } from '../workflow/workflow.state';
import { WorkflowRow, WorkflowRunRow, StoredWorkflowRun, createWorkflowTables } from './workflow-tables';
import { LatestRun, RunOrder, RunStatus } from '../../domain/run';
import { latestRunOf, runRows } from '../../read-models/run-list';
import { WorkflowRun, WorkflowRunAggregate } from '../workflow-run/workflow-run.state';
import { toWorkflowRun } from '../workflow-run/workflow-run.view';
import { WorkflowUsingAgent, WorkflowsUsingAgent } from '../../agents/workflows-using-agent.port';

/**
 * A run as a batch keeps it; `input`: its input as JSON, when it was added in this batch (the input is written with
 * the run's first row only); `insertOnly`: added in this batch, written only if no run has its id.
 */
interface KeptRun {
  run: StoredWorkflowRun;
  streamOpened: boolean;
  input?: string;
  insertOnly?: boolean;
}

function prepareStatements(db: Database.Database) {
  createWorkflowTables(db);
  return {
    upsertWorkflow: db.prepare<
      [
        string,
        string,
        string,
        string,
        string,
        string | null,
        string | null,
        number,
        string,
        string | null,
        string,
        string | null,
        string | null,
      ]
    >(
      `INSERT OR REPLACE INTO workflows
       (id, name, status, trigger, steps, output_step, last_run, version, created_at, last_scheduled_for, active_since,
        policy, input_schema)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    setLastRun: db.prepare<[string, string | null, string]>(
      'UPDATE workflows SET last_run = ?, last_scheduled_for = coalesce(?, last_scheduled_for) WHERE id = ?',
    ),
    setLastScheduledFor: db.prepare<[string, string]>('UPDATE workflows SET last_scheduled_for = ? WHERE id = ?'),
    pause: db.prepare<[string]>(`UPDATE workflows SET status = 'paused' WHERE id = ?`),
    resume: db.prepare<[string, string]>(`UPDATE workflows SET status = 'active', active_since = ? WHERE id = ?`),
    // The input is written once, when the run is added: a later event rewrites the rest only.
    upsertRun: db.prepare<[string, string, string, string, number, string, string]>(
      `INSERT INTO workflow_runs (id, workflow_id, status, created_at, stream_opened, doc, input)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, doc = excluded.doc,
         stream_opened = max(stream_opened, excluded.stream_opened)`,
    ),
    insertRunOrOpen: db.prepare<[string, string, string, string, number, string, string]>(
      `INSERT INTO workflow_runs (id, workflow_id, status, created_at, stream_opened, doc, input)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET stream_opened = max(stream_opened, excluded.stream_opened)`,
    ),
    markStreamOpened: db.prepare<[string]>('UPDATE workflow_runs SET stream_opened = 1 WHERE id = ?'),
    unopenedRuns: db.prepare<[string, number], WorkflowRunRow>(
      'SELECT * FROM workflow_runs WHERE stream_opened = 0 AND created_at <= ? ORDER BY created_at LIMIT ?',
    ),
    get: db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE id = ?'),
    activeNamed: db.prepare<[string], WorkflowRow>(
      `SELECT * FROM workflows WHERE name = ? AND status != 'archived' ORDER BY id LIMIT 10`,
    ),
    inputSchema: db.prepare<[string], { input_schema: string | null }>(
      `SELECT input_schema FROM workflows WHERE id = ? AND status != 'archived'`,
    ),
    listRuns: runRows<WorkflowRunRow>(db, 'workflow_runs', 'workflow_id'),
    latestRun: latestRunOf(db, 'workflow_runs', 'workflow_id', 'created_at'),
    getRunState: db.prepare<[string], Omit<WorkflowRunRow, 'input'>>(
      'SELECT workflow_id, stream_opened, doc FROM workflow_runs WHERE id = ?',
    ),
    getInput: db.prepare<[string], { input: string }>('SELECT input FROM workflow_runs WHERE id = ?'),
    usingAgent: db.prepare<[string], { id: string; name: string; steps: string }>(
      `SELECT workflows.id AS id, workflows.name AS name, json_group_array(step.key) AS steps
       FROM workflows, json_each(workflows.steps) AS step
       WHERE workflows.status != 'archived' AND json_extract(step.value, '$.agent') = ?
       GROUP BY workflows.id ORDER BY workflows.id`,
    ),
  };
}

/** The `workflows` and `workflow_runs` tables: written by WorkflowsProjection, read by the workflow queries. */
@Injectable()
export class WorkflowsReadModel implements WorkflowsUsingAgent {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly pages: DefinitionPages<WorkflowRow>;
  private readonly batchRuns = new BatchRows<KeptRun>((kept) => this.writeRun(kept));
  /**
   * Within a batch, each workflow's latest `lastRun` (and tick), written once: at the batch's end, or before
   * anything else reads or writes the workflow's row. A workflow triggered many times in a batch is updated once.
   */
  private lastRuns?: Map<string, { at: string; scheduledFor: string | null }>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
    this.pages = new DefinitionPages(db, 'workflows');
  }

  saveWorkflow(workflow: WorkflowAggregate): void {
    this.writeLastRuns();
    const { id, name, status, trigger, steps, lastRun, version, createdAt, lastScheduledFor, activeSince } = workflow;
    this.statements.upsertWorkflow.run(
      id,
      name,
      status,
      JSON.stringify(trigger),
      JSON.stringify(steps),
      workflow.outputStep ?? null,
      lastRun,
      version,
      createdAt,
      lastScheduledFor,
      activeSince,
      policyColumn(workflow),
      workflow.inputSchema ? JSON.stringify(workflow.inputSchema) : null,
    );
  }

  /** A run started: `lastRun` moves, and a schedule tick is remembered as handled. */
  setLastRun(workflowId: string, at: string, scheduledFor: string | null = null): void {
    if (!this.lastRuns) return void this.statements.setLastRun.run(at, scheduledFor, workflowId);
    const kept = this.lastRuns.get(workflowId);
    this.lastRuns.set(workflowId, { at, scheduledFor: scheduledFor ?? kept?.scheduledFor ?? null });
  }

  private writeLastRuns(): void {
    if (!this.lastRuns?.size) return;
    for (const [id, { at, scheduledFor }] of this.lastRuns) this.statements.setLastRun.run(at, scheduledFor, id);
    this.lastRuns.clear();
  }

  setLastScheduledFor(workflowId: string, scheduledFor: string): void {
    this.writeLastRuns();
    this.statements.setLastScheduledFor.run(scheduledFor, workflowId);
  }

  pause(workflowId: string): void {
    this.statements.pause.run(workflowId);
  }

  resume(workflowId: string, at: string): void {
    this.statements.resume.run(at, workflowId);
  }

  /**
   * Runs are kept as their aggregate's `evolve` left them, but for their input (see StoredWorkflowRun).
   * `streamOpened`: the run's own stream exists (false while only the workflow has recorded the trigger).
   */
  saveRun(run: StoredWorkflowRun, streamOpened: boolean): void {
    const input = this.batchRuns.get(run.id, () => undefined)?.input;
    this.batchRuns.set(run.id, { run, streamOpened, input });
  }

  /** Applies a projection's batch, writing each run and workflow it changes once, at the end (see BatchRows). */
  batch(work: () => void): void {
    this.lastRuns = new Map();
    try {
      this.batchRuns.batch(() => {
        work();
        this.writeLastRuns();
      });
    } finally {
      this.lastRuns = undefined;
    }
  }

  /**
   * Adds a run that is not there yet; a run already there is left as it is (only its stream may be marked
   * opened). Within a batch it is written at the end, so that its stream opening in the same batch (the usual
   * case: one commit) costs no second write.
   */
  insertRun(run: WorkflowRunAggregate, streamOpened: boolean): void {
    if (this.batchRuns.has(run.id)) return;
    const input = JSON.stringify(run.input);
    this.batchRuns.set(run.id, { run: { ...run, input: null }, streamOpened, input, insertOnly: true });
  }

  /** A run loaded from the table has its row, and its input there: the row's input is then left as it is. */
  private writeRun({ run, streamOpened, input = '{}', insertOnly }: KeptRun): void {
    const { id, workflowId, status, createdAt } = run;
    const statement = insertOnly ? this.statements.insertRunOrOpen : this.statements.upsertRun;
    statement.run(id, workflowId, status, createdAt, streamOpened ? 1 : 0, JSON.stringify(run), input);
  }

  /** Records that the run's own stream exists; false when the run is not there. */
  markStreamOpened(runId: string): boolean {
    const kept = this.batchRuns.get(runId, () => undefined);
    if (!kept) return this.statements.markStreamOpened.run(runId).changes > 0;
    if (!kept.streamOpened) this.batchRuns.set(runId, { ...kept, streamOpened: true });
    return true;
  }

  /** Runs triggered no later than `before` whose own stream was never opened (see WorkflowRunOpener). */
  unopenedRuns(before: string, limit: number): WorkflowRun[] {
    return this.statements.unopenedRuns.all(before, limit).map(toRun);
  }

  /** The run without its input (read only by `getRun`); `workflowId`, when given, must be the run's workflow. */
  getRunAggregate(runId: string, workflowId?: string): StoredWorkflowRun | undefined {
    const kept = this.batchRuns.get(runId, () => {
      const row = this.statements.getRunState.get(runId);
      return row && { run: JSON.parse(row.doc) as StoredWorkflowRun, streamOpened: row.stream_opened === 1 };
    });
    return kept && (workflowId === undefined || kept.run.workflowId === workflowId) ? kept.run : undefined;
  }

  list(filter: DefinitionListFilter, after: string, limit: number): Page<Workflow> {
    return this.pages.page(filter, after, limit, toWorkflow);
  }

  get(id: string): Workflow | undefined {
    const row = this.statements.get.get(id);
    return row && toWorkflow(row);
  }

  /** The workflows not archived with this name (names need not be unique), oldest first. */
  activeNamed(name: string): Workflow[] {
    return this.statements.activeNamed.all(name).map(toWorkflow);
  }

  /** The `inputSchema` of a workflow not archived; undefined when it has none (or there is no such workflow). */
  inputSchemaOf(id: string): Record<string, unknown> | undefined {
    const schema = this.statements.inputSchema.get(id)?.input_schema;
    return schema ? (JSON.parse(schema) as Record<string, unknown>) : undefined;
  }

  /** The workflow with what only the decider needs, for projecting a change onto it. */
  getAggregate(id: string): WorkflowAggregate | undefined {
    this.writeLastRuns();
    const row = this.statements.get.get(id);
    return row && { ...toWorkflow(row), lastScheduledFor: row.last_scheduled_for, activeSince: row.active_since };
  }

  listRuns(
    workflowId: string,
    status: RunStatus | undefined,
    after: string,
    limit: number,
    order: RunOrder = 'asc',
  ): Page<WorkflowRun> {
    const rows = this.statements.listRuns(workflowId, status, after, limit + 1, order);
    return toPage(rows.map(toRun), limit);
  }

  /** The workflows not archived whose steps name this agent, with the indexes of those steps. */
  usingAgent(agentName: string): WorkflowUsingAgent[] {
    return this.statements.usingAgent
      .all(agentName)
      .map(({ id, name, steps }) => ({ id, name, steps: JSON.parse(steps) as number[] }));
  }

  /** The workflow's latest run (its highest id), shown beside `lastRun`. */
  latestRun(workflowId: string): LatestRun | null {
    return this.statements.latestRun(workflowId);
  }

  /** The run as the API shows it, with its input. */
  getRun(workflowId: string, runId: string): WorkflowRun | undefined {
    const run = this.getRunAggregate(runId, workflowId);
    const row = run && this.statements.getInput.get(runId);
    return row && toWorkflowRun(withInput(run, row.input));
  }
}

function toWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: JSON.parse(row.trigger),
    steps: JSON.parse(row.steps),
    ...(row.output_step !== null && { outputStep: row.output_step }),
    ...(row.input_schema !== null && { inputSchema: JSON.parse(row.input_schema) as Record<string, unknown> }),
    lastRun: row.last_run,
    version: row.version,
    createdAt: row.created_at,
    ...(row.policy && (JSON.parse(row.policy) as RunPolicy)),
  };
}

/** `overlap`, `maxConcurrentRuns` and `concurrency` as JSON; null when all are the defaults. */
function policyColumn({ overlap, maxConcurrentRuns, concurrency }: RunPolicy): string | null {
  const policy = {
    ...(overlap && overlap !== 'allow' && { overlap }),
    ...(typeof maxConcurrentRuns === 'number' && { maxConcurrentRuns }),
    ...(concurrency && { concurrency }),
  };
  return Object.keys(policy).length ? JSON.stringify(policy) : null;
}

function toRun(row: WorkflowRunRow): WorkflowRun {
  return toWorkflowRun(withInput(JSON.parse(row.doc) as StoredWorkflowRun, row.input));
}

/** The run whole again, its input in the place it had (the document keeps the key, as null). */
function withInput(run: StoredWorkflowRun, input: string): WorkflowRunAggregate {
  return { ...run, input: JSON.parse(input) as WorkflowRunAggregate['input'] };
}
