import Database from 'better-sqlite3';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CreateAgentCommand } from '../../src/agents/create-agent/create-agent.command';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/load-config';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { ReadYourWrites } from '../../src/read-models/read-your-writes';
import { CreateWorkflowCommand } from '../../src/workflows/create-workflow/create-workflow.command';
import { WorkflowScheduler } from '../../src/workflows/scheduling/workflow-scheduler';
import { RunTrigger } from '../../src/workflows/workflow/workflow.state';

/**
 * One instance of the service without HTTP, for scheduler tests under Jest fake timers: its own read models in
 * `dataDir`, its own connection to the shared `eventsFile` (as a second process would have), the system clock.
 */
export interface SchedulerInstance {
  app: NestFastifyApplication;
  commands: CommandBus;
  queries: QueryBus;
  scheduler: WorkflowScheduler;
  readYourWrites: ReadYourWrites;
  createScheduledWorkflow(cron: string, timezone?: string): Promise<string>;
  /** Waits for the commands of the ticks so far, then for this instance's read models to show them. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Fakes timers and Date from `now`; the store's grouped commits (setImmediate) and promises stay real. */
export function useFakeTimers(now: Date): void {
  jest.useFakeTimers({ now, doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'] });
}

let agents = 0;

export async function startSchedulerInstance(
  dataDir: string,
  eventsFile: string,
  // prepareAheadMs: SCHEDULE_PREPARE_AHEAD_MS (0: every tick decided when it comes).
  options: { catchUpWindowMs?: number; pollIntervalMs?: number; prepareAheadMs?: number } = {},
): Promise<SchedulerInstance> {
  // In-process commits wake the subscription at once; polling only finds the other instance's commits.
  const store = new SqliteEventStore({
    file: eventsFile,
    synchronous: 'NORMAL',
    pollIntervalMs: options.pollIntervalMs ?? 3_600_000,
  });
  const config = { ...loadConfig({}), dataDir, logLevel: 'error' as const };
  // No test here waits on a step's timer or a memory's expiry: their polls (each second by default) come once a
  // minute, so that a test that moves the fake clock by days fires thousands of them, not hundreds of thousands.
  config.workflows = { ...config.workflows, timerPollMs: 60_000 };
  if (options.catchUpWindowMs !== undefined) config.scheduleCatchUpWindowMs = options.catchUpWindowMs;
  if (options.prepareAheadMs !== undefined) config.schedulePrepareAheadMs = options.prepareAheadMs;
  const app = await createApp(config, { store });
  const commands = app.get(CommandBus);
  const readYourWrites = app.get(ReadYourWrites);
  const scheduler = app.get(WorkflowScheduler);
  return {
    app,
    commands,
    queries: app.get(QueryBus),
    scheduler,
    readYourWrites,
    async createScheduledWorkflow(cron, timezone = 'UTC') {
      const agent = `agent ${++agents}`;
      await commands.execute(
        new CreateAgentCommand({
          name: agent,
          model: 'openai/gpt-4o-mini',
          instructions: '',
          tools: [],
          maxSteps: 10,
          outputSchema: null,
          memory: { maxMessages: 50 },
          approvalRequired: [],
          fallbackModels: [],
          guardrails: {},
          handoffs: [],
          scorers: [],
          description: '',
        }),
      );
      const workflow = await commands.execute(
        new CreateWorkflowCommand('scheduled', { type: 'schedule', cron, timezone }, [{ agent, action: 'go' }]),
      );
      return workflow.id;
    },
    async settle() {
      await scheduler.settled();
      // Another instance's commits reach this one by polling, which fake timers would hold back.
      const head = headOf(eventsFile);
      store.pollNow();
      await readYourWrites.waitFor(head);
    },
    close: () => app.close(),
  };
}

function headOf(eventsFile: string): bigint {
  return withEvents(eventsFile, (db) =>
    BigInt((db.prepare('SELECT max(position) AS p FROM events').get() as { p: number | null }).p ?? 0),
  );
}

function withEvents<T>(eventsFile: string, read: (db: Database.Database) => T): T {
  const db = new Database(eventsFile, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The scheduled runs in the event log, in order: the truth that every instance shares. */
export function scheduledRuns(eventsFile: string, workflowId?: string): string[] {
  return withEvents(eventsFile, (db) =>
    (
      db.prepare(`SELECT data FROM events WHERE type = 'WorkflowRunQueued' ORDER BY position`).all() as Array<{
        data: string;
      }>
    )
      .map((row) => JSON.parse(row.data) as { workflowId: string; trigger: RunTrigger })
      .filter((run) => run.trigger.type === 'schedule' && (workflowId === undefined || run.workflowId === workflowId))
      .map((run) => (run.trigger as { scheduledFor: string }).scheduledFor),
  );
}

export function eventsOfType(eventsFile: string, type: string): Array<Record<string, unknown>> {
  return withEvents(eventsFile, (db) =>
    (db.prepare('SELECT data FROM events WHERE type = ? ORDER BY position').all(type) as Array<{ data: string }>).map(
      (row) => JSON.parse(row.data),
    ),
  );
}
