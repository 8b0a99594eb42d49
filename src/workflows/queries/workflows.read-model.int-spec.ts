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
});
