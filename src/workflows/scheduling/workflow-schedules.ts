import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../../read-models/read-database';
import { WorkflowRow, createWorkflowTables } from '../queries/workflow-tables';
import { Workflow, WorkflowTrigger } from '../workflow/workflow.state';

/** What the scheduler needs of a workflow: its schedule, and the instant after which its ticks are still due. */
export interface ScheduledWorkflow {
  id: string;
  status: Workflow['status'];
  trigger: WorkflowTrigger;
  /** The latest tick recorded, or when the workflow was created or resumed, whichever is later. */
  dueAfter: string;
}

type ScheduleRow = Pick<WorkflowRow, 'id' | 'status' | 'trigger' | 'last_scheduled_for' | 'active_since'>;

const SCHEDULE_COLUMNS = 'id, status, trigger, last_scheduled_for, active_since';

/** The scheduler's view of the `workflows` table: the active workflows with a schedule, and where each stands. */
@Injectable()
export class WorkflowSchedules {
  private readonly activeStatement: Database.Statement<[], ScheduleRow>;
  private readonly oneStatement: Database.Statement<[string], ScheduleRow>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    createWorkflowTables(db);
    this.activeStatement = db.prepare(
      `SELECT ${SCHEDULE_COLUMNS} FROM workflows WHERE status = 'active' AND json_extract(trigger, '$.type') = 'schedule'`,
    );
    this.oneStatement = db.prepare(`SELECT ${SCHEDULE_COLUMNS} FROM workflows WHERE id = ?`);
  }

  /** Every active workflow with a schedule (the scheduler's start). */
  active(): ScheduledWorkflow[] {
    return this.activeStatement.all().map(toScheduled);
  }

  /** The workflow as the scheduler sees it, whatever its status or trigger. */
  of(workflowId: string): ScheduledWorkflow | undefined {
    const row = this.oneStatement.get(workflowId);
    return row && toScheduled(row);
  }
}

function toScheduled(row: ScheduleRow): ScheduledWorkflow {
  const { last_scheduled_for: last, active_since: since } = row;
  const dueAfter = last !== null && Date.parse(last) > Date.parse(since) ? last : since;
  return { id: row.id, status: row.status, trigger: JSON.parse(row.trigger), dueAfter };
}
