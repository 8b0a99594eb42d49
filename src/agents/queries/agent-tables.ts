import type Database from 'better-sqlite3';
import { dropForRebuild, tableColumns } from '../../read-models/read-database';
import { Agent } from '../agent';
import { AgentRunAggregate } from '../agent-run/agent-run.state';

/**
 * A run as `agent_runs.doc` keeps it: its context, free-form JSON of up to a body's size, is in a column of its
 * own, written once when the run is queued and read only to show the run, so that the many events of a run's
 * life neither parse nor rewrite it. The document keeps the key (as null) so that the run shows its fields in
 * their usual order.
 */
export type StoredAgentRun = Omit<AgentRunAggregate, 'context'> & { context: null };

/** A row of `agents`. */
export interface AgentRow {
  id: string;
  name: string;
  status: Agent['status'];
  model: string;
  instructions: string;
  tools: string;
  max_steps: number | null;
  version: number;
  created_at: string;
  last_run: string | null;
  /** JSON: the definition's fields that need no column of their own (`outputSchema`, ...). */
  options: string;
}

/**
 * A read model from before runs were executed, versions, last runs, options or contexts of their own is dropped and
 * rebuilt from the log.
 */
function migrate(db: Database.Database): void {
  const columns = (table: string) => tableColumns(db, table);
  const runs = columns('agent_runs');
  const agents = columns('agents');
  if (
    runs.length === 0 ||
    (runs.includes('doc') &&
      runs.includes('context') &&
      agents.includes('version') &&
      agents.includes('last_run') &&
      agents.includes('options'))
  )
    return;
  dropForRebuild(db, 'agents', ['agents', 'agent_runs']);
}

/** Creates the `agents` and `agent_runs` tables, after dropping ones of an older shape. */
export function createAgentTables(db: Database.Database): void {
  migrate(db);
  db.exec(`
      CREATE TABLE IF NOT EXISTS agents (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, model TEXT NOT NULL,
        instructions TEXT NOT NULL, tools TEXT NOT NULL, max_steps INTEGER, version INTEGER NOT NULL,
        created_at TEXT NOT NULL, last_run TEXT, options TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX IF NOT EXISTS agents_by_name ON agents (name);
      CREATE TABLE IF NOT EXISTS agent_runs (
        id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, status TEXT NOT NULL, lease_at TEXT, doc TEXT NOT NULL,
        context TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX IF NOT EXISTS agent_runs_by_agent ON agent_runs (agent_id, id);
      CREATE INDEX IF NOT EXISTS agent_runs_by_agent_status ON agent_runs (agent_id, status, id);
      CREATE INDEX IF NOT EXISTS agent_runs_running ON agent_runs (lease_at) WHERE status = 'running';
      CREATE INDEX IF NOT EXISTS agent_runs_waiting ON agent_runs (lease_at) WHERE status = 'waiting';
    `);
}
