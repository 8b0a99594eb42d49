import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadDatabase } from '../../read-models/read-database';
import { WorkflowSchedules } from '../scheduling/workflow-schedules';
import { WorkflowsReadModel } from './workflows.read-model';

describe('workflows read model', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'read-model-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('drops a table from before the schedule columns and has the projection replay the log into the new one', () => {
    const db = openReadDatabase(join(folder, 'read-models.sqlite'));
    db.exec(`
      CREATE TABLE workflows (id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL,
        steps TEXT NOT NULL, last_run TEXT, created_at TEXT NOT NULL);
      INSERT INTO workflows VALUES ('wf_1', 'old', 'active', '{"type":"manual"}', '[]', NULL, '2026-01-01T00:00:00.000Z');
      INSERT INTO checkpoints VALUES ('workflows', 42), ('agents', 42);
    `);
    const readModel = new WorkflowsReadModel(db);
    expect(readModel.get('wf_1')).toBeUndefined();
    expect(db.prepare('SELECT name FROM checkpoints').all()).toEqual([{ name: 'agents' }]);

    readModel.saveWorkflow({
      id: 'wf_2',
      name: 'new',
      status: 'active',
      trigger: { type: 'schedule', cron: '* * * * *', timezone: 'UTC' },
      steps: [],
      lastRun: null,
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastScheduledFor: null,
      activeSince: '2026-01-01T00:00:00.000Z',
    });
    new WorkflowsReadModel(db); // a current table is kept
    expect(new WorkflowSchedules(db).active()).toEqual([
      {
        id: 'wf_2',
        status: 'active',
        trigger: expect.objectContaining({ type: 'schedule' }),
        dueAfter: '2026-01-01T00:00:00.000Z',
      },
    ]);
    db.close();
  });

  it('adds the policy column to a current table, keeping its rows (their policy is the default)', () => {
    const db = openReadDatabase(join(folder, 'read-models.sqlite'));
    db.exec(`
      CREATE TABLE workflows (id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL,
        steps TEXT NOT NULL, output_step TEXT, last_run TEXT, version INTEGER NOT NULL, created_at TEXT NOT NULL,
        last_scheduled_for TEXT, active_since TEXT NOT NULL);
      CREATE TABLE workflow_runs (id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, status TEXT NOT NULL,
        created_at TEXT NOT NULL, stream_opened INTEGER NOT NULL DEFAULT 0, doc TEXT NOT NULL,
        input TEXT NOT NULL DEFAULT '{}');
      INSERT INTO workflows VALUES ('wf_1', 'kept', 'active', '{"type":"manual"}', '[]', NULL, NULL, 3,
        '2026-01-01T00:00:00.000Z', NULL, '2026-01-01T00:00:00.000Z');
      INSERT INTO checkpoints VALUES ('workflows', 42);
    `);
    const readModel = new WorkflowsReadModel(db);
    expect(readModel.get('wf_1')).toMatchObject({ name: 'kept', version: 3 });
    expect(readModel.get('wf_1')).not.toHaveProperty('overlap');
    expect(db.prepare('SELECT position FROM checkpoints WHERE name = ?').get('workflows')).toEqual({ position: 42 });

    readModel.saveWorkflow({ ...readModel.getAggregate('wf_1')!, overlap: 'buffer_one', maxConcurrentRuns: 2 });
    expect(readModel.get('wf_1')).toMatchObject({ overlap: 'buffer_one', maxConcurrentRuns: 2 });
    db.close();
  });
});
