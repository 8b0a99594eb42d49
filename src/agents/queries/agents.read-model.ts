import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../http/paging';
import { READ_DATABASE } from '../../read-models/read-database';
import { Agent } from '../agent';
import { AgentRun } from '../agent-run';

export type AgentSummary = Pick<Agent, 'id' | 'name' | 'status' | 'model' | 'createdAt'>;

interface AgentRow {
  id: string;
  name: string;
  status: Agent['status'];
  model: string;
  instructions: string;
  tools: string;
  created_at: string;
}

interface AgentRunRow {
  id: string;
  agent_id: string;
  task: string;
  context: string;
  status: AgentRun['status'];
  created_at: string;
}

function prepareStatements(db: Database.Database) {
  db.exec(`
      CREATE TABLE IF NOT EXISTS agents (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, model TEXT NOT NULL,
        instructions TEXT NOT NULL, tools TEXT NOT NULL, created_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS agents_by_name ON agents (name);
      CREATE TABLE IF NOT EXISTS agent_runs (
        id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, task TEXT NOT NULL, context TEXT NOT NULL,
        status TEXT NOT NULL, created_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS agent_runs_by_agent ON agent_runs (agent_id, id);
    `);
  return {
    upsertAgent: db.prepare(
      `INSERT OR REPLACE INTO agents (id, name, status, model, instructions, tools, created_at)
         VALUES (@id, @name, @status, @model, @instructions, @tools, @createdAt)`,
    ),
    upsertRun: db.prepare(
      `INSERT OR REPLACE INTO agent_runs (id, agent_id, task, context, status, created_at)
         VALUES (@id, @agentId, @task, @context, @status, @createdAt)`,
    ),
    list: db.prepare<[string, number], AgentRow>('SELECT * FROM agents WHERE id > ? ORDER BY id LIMIT ?'),
    get: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE id = ?'),
    withName: db.prepare<[string], { id: string }>('SELECT id FROM agents WHERE name = ?'),
    listRuns: db.prepare<[string, string, number], AgentRunRow>(
      'SELECT * FROM agent_runs WHERE agent_id = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    getRun: db.prepare<[string, string], AgentRunRow>('SELECT * FROM agent_runs WHERE id = ? AND agent_id = ?'),
  };
}

/** The `agents` and `agent_runs` tables: written by AgentsProjection, read by the agent queries. */
@Injectable()
export class AgentsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  saveAgent(agent: Agent): void {
    this.statements.upsertAgent.run({ ...agent, tools: JSON.stringify(agent.tools) });
  }

  saveRun(run: AgentRun): void {
    this.statements.upsertRun.run({ ...run, context: JSON.stringify(run.context) });
  }

  list(after: string, limit: number): Page<AgentSummary> {
    const rows = this.statements.list.all(after, limit + 1);
    return toPage(
      rows.map(({ id, name, status, model, created_at }) => ({ id, name, status, model, createdAt: created_at })),
      limit,
    );
  }

  get(id: string): Agent | undefined {
    const row = this.statements.get.get(id);
    return row && toAgent(row);
  }

  hasAgentNamed(name: string): boolean {
    return this.statements.withName.get(name) !== undefined;
  }

  listRuns(agentId: string, after: string, limit: number): Page<AgentRun> {
    return toPage(this.statements.listRuns.all(agentId, after, limit + 1).map(toRun), limit);
  }

  getRun(agentId: string, runId: string): AgentRun | undefined {
    const row = this.statements.getRun.get(runId, agentId);
    return row && toRun(row);
  }
}

function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    model: row.model,
    instructions: row.instructions,
    tools: JSON.parse(row.tools),
    createdAt: row.created_at,
  };
}

function toRun(row: AgentRunRow): AgentRun {
  return {
    id: row.id,
    agentId: row.agent_id,
    task: row.task,
    context: JSON.parse(row.context),
    status: row.status,
    createdAt: row.created_at,
  };
}
