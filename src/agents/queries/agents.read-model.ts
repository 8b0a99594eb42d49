import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { LatestRun, RunOrder, RunStatus } from '../../domain/run';
import { latestRunOf, runRows } from '../../read-models/run-list';
import { Page, toPage } from '../../read-models/page';
import { DefinitionListFilter, DefinitionPages } from '../../read-models/definition-list-filter';
import { BatchRows } from '../../read-models/batch-rows';
import { READ_DATABASE } from '../../read-models/read-database';
import { Agent, DEFAULT_MAX_STEPS, DEFAULT_MEMORY } from '../agent';
import { AgentRun, AgentRunAggregate } from '../agent-run/agent-run.state';
import { toAgentRun } from '../agent-run/agent-run.view';
import { AgentRow, StoredAgentRun, createAgentTables } from './agent-tables';
import { AgentDirectory } from '../agent-directory.port';
import { RunTree, withDescendants } from './run-tree';
import { FORGOTTEN, replaceAt } from '../../event-store/sealing/sealed-values';

/**
 * A list entry: `lastRun` is when the agent's latest run was queued, by a request or a workflow step (SPEC.md's
 * field, kept), and `latestRun` that run.
 */
export type AgentSummary = Pick<Agent, 'id' | 'name' | 'status' | 'model' | 'createdAt'> & {
  lastRun: string | null;
  latestRun: LatestRun | null;
};

function prepareStatements(db: Database.Database) {
  createAgentTables(db);
  return {
    upsertAgent: db.prepare<[string, string, string, string, string, string, number, number, string, string]>(
      `INSERT INTO agents (id, name, status, model, instructions, tools, max_steps, version, created_at, options)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, model = excluded.model,
         instructions = excluded.instructions, tools = excluded.tools, max_steps = excluded.max_steps,
         version = excluded.version, options = excluded.options`,
    ),
    setLastRun: db.prepare<[string, string, string]>(
      'UPDATE agents SET last_run = ? WHERE id = ? AND (last_run IS NULL OR last_run < ?)',
    ),
    // The context is written once, when the run is queued: a later event rewrites the rest only.
    upsertRun: db.prepare<[string, string, string, string | null, string]>(
      `INSERT INTO agent_runs (id, agent_id, status, lease_at, doc) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, lease_at = excluded.lease_at, doc = excluded.doc`,
    ),
    insertRun: db.prepare<[string, string, string, string | null, string, string]>(
      `INSERT INTO agent_runs (id, agent_id, status, lease_at, doc, context) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ),
    get: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE id = ?'),
    nameOf: db.prepare<[string], { name: string }>('SELECT name FROM agents WHERE id = ?'),
    withName: db.prepare<[string], { id: string }>(`SELECT id FROM agents WHERE name = ? AND status != 'archived'`),
    archivedWithName: db.prepare<[string], { id: string }>(
      `SELECT id FROM agents WHERE name = ? AND status = 'archived' ORDER BY id DESC LIMIT 1`,
    ),
    listRuns: runRows<{ doc: string; context: string }>(db, 'agent_runs', 'agent_id'),
    latestRun: latestRunOf(db, 'agent_runs', 'agent_id', "json_extract(doc, '$.createdAt')"),
    getRun: db.prepare<[string], { agent_id: string; doc: string }>(
      'SELECT agent_id, doc FROM agent_runs WHERE id = ?',
    ),
    getContext: db.prepare<[string], { context: string }>('SELECT context FROM agent_runs WHERE id = ?'),
    setContext: db.prepare<[string, string]>('UPDATE agent_runs SET context = ? WHERE id = ?'),
    waitingRuns: db.prepare<[string, number], { id: string }>(
      `SELECT id FROM agent_runs WHERE status = 'waiting' AND lease_at < ? ORDER BY lease_at LIMIT ?`,
    ),
    staleRuns: db.prepare<[string, string, string, number], { id: string; lease_at: string }>(
      `SELECT id, lease_at FROM agent_runs
       WHERE status = 'running' AND lease_at < ? AND (lease_at, id) > (?, ?) ORDER BY lease_at, id LIMIT ?`,
    ),
  };
}

/** What of a run is the content of its subject (see forgetRun), as paths of sealed-values.ts. */
const RUN_CONTENT = [
  'task',
  'output',
  'outputObject',
  'toolCalls[].input',
  'toolCalls[].output',
  'pendingApprovals[].args',
  'decided[].requestedArgs',
  'children[].task',
  'children[].context',
  'children[].output',
  'lastHandoff.messages',
];

/** A run whose lease went stale, and where a page of them goes on. */
export interface StaleRun {
  id: string;
  leaseAt: string;
}

/** The `agents` and `agent_runs` tables: written by AgentsProjection, read by the agent queries and the executors. */
@Injectable()
export class AgentsReadModel implements AgentDirectory {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly pages: DefinitionPages<AgentRow>;
  private readonly batchRuns = new BatchRows<StoredAgentRun>((run) => this.writeRun(run));
  /** Within a batch, each agent's latest `lastRun`, written once at the batch's end. */
  private lastRuns?: Map<string, string>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
    this.pages = new DefinitionPages(db, 'agents');
  }

  saveAgent(agent: Agent): void {
    const { id, name, status, model, instructions, tools, maxSteps, version, createdAt } = agent;
    this.statements.upsertAgent.run(
      id,
      name,
      status,
      model,
      instructions,
      JSON.stringify(tools),
      maxSteps,
      version,
      createdAt,
      JSON.stringify(optionsOf(agent)),
    );
  }

  /** `lastRun` only ever moves forward, so within a batch only the latest counts. */
  setLastRun(agentId: string, at: string): void {
    if (!this.lastRuns) return void this.statements.setLastRun.run(at, agentId, at);
    const kept = this.lastRuns.get(agentId);
    if (kept === undefined || kept < at) this.lastRuns.set(agentId, at);
  }

  /** Applies a projection's batch, writing each run and agent it changes once, at the end (see BatchRows). */
  batch(work: () => void): void {
    this.lastRuns = new Map();
    try {
      this.batchRuns.batch(() => {
        work();
        for (const [agentId, at] of this.lastRuns!) this.statements.setLastRun.run(at, agentId, at);
      });
    } finally {
      this.lastRuns = undefined;
    }
  }

  /** Runs are kept as their aggregate's `evolve` left them, but for their context (see StoredAgentRun). */
  saveRun(run: StoredAgentRun): void {
    this.batchRuns.set(run.id, run);
  }

  /** The run's content reads as forgotten (its subject was): its task, context, answer, tool calls' arguments and results. */
  forgetRun(runId: string): void {
    const run = this.getRunAggregate(runId);
    if (!run) return;
    const forgotten = JSON.parse(JSON.stringify(run)) as StoredAgentRun;
    replaceAt(forgotten as unknown as Record<string, unknown>, RUN_CONTENT, () => FORGOTTEN);
    this.saveRun({ ...forgotten, context: null });
    this.statements.setContext.run(JSON.stringify(FORGOTTEN), runId);
  }

  /** Adds a run that is not there yet; false (and nothing written) when it is. */
  insertRun(run: AgentRunAggregate): boolean {
    if (this.batchRuns.has(run.id)) return false;
    const { id, agentId, status, heartbeatAt } = run;
    const state: StoredAgentRun = { ...run, context: null };
    const doc = JSON.stringify(state);
    const context = JSON.stringify(run.context);
    const inserted = this.statements.insertRun.run(id, agentId, status, heartbeatAt, doc, context).changes > 0;
    if (inserted) this.batchRuns.set(id, state, false);
    return inserted;
  }

  private writeRun(run: StoredAgentRun): void {
    this.statements.upsertRun.run(run.id, run.agentId, run.status, leaseAt(run), JSON.stringify(run));
  }

  list(filter: DefinitionListFilter, after: string, limit: number): Page<AgentSummary> {
    return this.pages.page(filter, after, limit, ({ id, name, status, model, created_at, last_run }) => ({
      id,
      name,
      status,
      model,
      lastRun: last_run,
      latestRun: this.statements.latestRun(id),
      createdAt: created_at,
    }));
  }

  get(id: string): Agent | undefined {
    const row = this.statements.get.get(id);
    return row && toAgent(row);
  }

  /** The agent's name as it is now (archived agents keep theirs); undefined when there is no such agent. */
  nameOf(id: string): string | undefined {
    return this.statements.nameOf.get(id)?.name;
  }

  /** Whether an agent that is not archived has this name (workflow steps name agents). */
  hasAgentNamed(name: string): boolean {
    return this.statements.withName.get(name) !== undefined;
  }

  /** The agent that is not archived and has this name, if any (an `agent:<name>` tool names it). */
  activeAgentNamed(name: string): Agent | undefined {
    const found = this.statements.withName.get(name);
    return found && this.get(found.id);
  }

  /** The latest archived agent of this name, if any (to say why a step's agent is gone). */
  archivedAgentNamed(name: string): string | undefined {
    return this.statements.archivedWithName.get(name)?.id;
  }

  runStatus(runId: string): RunStatus | undefined {
    return this.getRunAggregate(runId)?.status;
  }

  listRuns(
    agentId: string,
    status: RunStatus | undefined,
    after: string,
    limit: number,
    order: RunOrder = 'asc',
  ): Page<AgentRun> {
    const rows = this.statements.listRuns(agentId, status, after, limit + 1, order);
    return toPage(
      rows.map((row) => toAgentRun(withContext(JSON.parse(row.doc) as StoredAgentRun, row.context))),
      limit,
    );
  }

  /**
   * The run with its executor's lease, but without its context (read only by `getRun`); `agentId`, when given,
   * must be the run's agent.
   */
  getRunAggregate(runId: string, agentId?: string): StoredAgentRun | undefined {
    const run = this.batchRuns.get(runId, () => {
      const row = this.statements.getRun.get(runId);
      return row && (JSON.parse(row.doc) as StoredAgentRun);
    });
    return run && (agentId === undefined || run.agentId === agentId) ? run : undefined;
  }

  /** The run as the API shows it, with its context; with `tree`, its whole tree of runs. */
  /** A run's context, kept apart from the rest of it (see saveRun); undefined when there is no such run. */
  runContext(runId: string): AgentRunAggregate['context'] | undefined {
    const row = this.statements.getContext.get(runId);
    return row && (JSON.parse(row.context) as AgentRunAggregate['context']);
  }

  getRun(agentId: string, runId: string, tree = false): (AgentRun & { tree?: RunTree }) | undefined {
    const run = this.getRunAggregate(runId, agentId);
    const row = run && this.statements.getContext.get(runId);
    if (!row) return undefined;
    return withDescendants(toAgentRun(withContext(run, row.context)), (id) => this.getRunAggregate(id), tree);
  }

  /** Runs that have waited for a decision since before `before`. */
  waitingRuns(before: string, limit: number): string[] {
    return this.statements.waitingRuns.all(before, limit).map((row) => row.id);
  }

  /**
   * Running runs whose executor has not renewed its lease since `before`, oldest lease first, at most `limit`;
   * `after` (the last of the page before) pages on.
   */
  staleRuns(before: string, limit: number, after?: StaleRun): StaleRun[] {
    return this.statements.staleRuns
      .all(before, after?.leaseAt ?? '', after?.id ?? '', limit)
      .map((row) => ({ id: row.id, leaseAt: row.lease_at }));
  }
}

/** The run whole again, its context in the place it had (the document keeps the key, as null). */
function withContext(run: StoredAgentRun, context: string): AgentRunAggregate {
  return { ...run, context: JSON.parse(context) as AgentRunAggregate['context'] };
}

/** The definition's fields kept in the `options` column. */
function optionsOf(agent: Agent) {
  const { outputSchema, memory, approvalRequired, fallbackModels, guardrails, handoffs, scorers, description } = agent;
  return { outputSchema, memory, approvalRequired, fallbackModels, guardrails, handoffs, scorers, description };
}

/** `lease_at`: when a running run's lease was last renewed, or since when a waiting run waits. */
function leaseAt(run: StoredAgentRun): string | null {
  return run.status === 'waiting' ? run.waitingSince : run.heartbeatAt;
}

function toAgent(row: AgentRow): Agent {
  const options = JSON.parse(row.options) as Partial<Agent>;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    model: row.model,
    instructions: row.instructions,
    tools: JSON.parse(row.tools),
    maxSteps: row.max_steps ?? DEFAULT_MAX_STEPS,
    outputSchema: options.outputSchema ?? null,
    memory: options.memory ?? DEFAULT_MEMORY,
    approvalRequired: options.approvalRequired ?? [],
    fallbackModels: options.fallbackModels ?? [],
    guardrails: options.guardrails ?? {},
    handoffs: options.handoffs ?? [],
    scorers: options.scorers ?? [],
    description: options.description ?? '',
    version: row.version,
    createdAt: row.created_at,
  };
}
