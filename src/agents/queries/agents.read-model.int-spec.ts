import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadDatabase } from '../../read-models/read-database';
import { AgentsReadModel } from './agents.read-model';

describe('agents read model', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'read-model-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('drops tables from before versions and has the projection replay the log into the new ones', () => {
    const db = openReadDatabase(join(folder, 'read-models.sqlite'));
    db.exec(`
      CREATE TABLE agents (id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, model TEXT NOT NULL,
        instructions TEXT NOT NULL, tools TEXT NOT NULL, max_steps INTEGER, created_at TEXT NOT NULL);
      CREATE TABLE agent_runs (id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, status TEXT NOT NULL, lease_at TEXT,
        doc TEXT NOT NULL);
      INSERT INTO agents VALUES ('agent_1', 'old', 'active', 'a/b', '', '[]', 10, '2026-01-01T00:00:00.000Z');
      INSERT INTO checkpoints VALUES ('agents', 42), ('workflows', 42);
    `);
    const readModel = new AgentsReadModel(db);
    expect(readModel.get('agent_1')).toBeUndefined();
    expect(db.prepare('SELECT name FROM checkpoints').all()).toEqual([{ name: 'workflows' }]);

    const agent = {
      id: 'agent_2',
      name: 'new',
      status: 'active' as const,
      model: 'a/b',
      instructions: '',
      tools: [],
      maxSteps: 10,
      outputSchema: { type: 'object' },
      memory: { maxMessages: 7 },
      approvalRequired: ['mcp:files/*'],
      fallbackModels: ['anthropic/claude-3-5-haiku-latest'],
      description: 'Reads files.',
      guardrails: { input: [{ type: 'pii' as const, kinds: ['email' as const], action: 'redact' as const }] },
      handoffs: ['billing', { agent: 'refunds', input: 'summary' as const }],
      scorers: [{ scorer: 'polite', sampling: 0.25 }],
      version: 3,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    readModel.saveAgent(agent);
    new AgentsReadModel(db); // current tables are kept
    expect(readModel.get('agent_2')).toEqual(agent);
    db.close();
  });
});
