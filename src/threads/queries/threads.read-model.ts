import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../read-models/page';
import { READ_DATABASE } from '../../read-models/read-database';
import { Thread, ThreadMessage } from '../thread';
import { ThreadRow, createThreadTables } from './thread-tables';

/** A thread as the API shows it: `busy` while a run of it is not settled; its running summary, if it has one. */
export type ThreadView = Omit<Thread, 'archivedAt' | 'subjectId'> & {
  subjectId: string | null;
  status: 'idle' | 'busy';
  summary: string | null;
  archivedAt: string | null;
};

const THREAD_COLUMNS = `t.*, (SELECT count(*) FROM thread_runs r WHERE r.thread_id = t.id AND r.open = 1) AS open_runs,
  (SELECT s.summary FROM thread_summaries s WHERE s.thread_id = t.id) AS summary`;

function prepareStatements(db: Database.Database) {
  createThreadTables(db);
  return {
    insertThread: db.prepare<[string, string, string, string | null, string, string]>(
      `INSERT INTO threads (id, agent_id, metadata, subject_id, message_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ),
    forget: [
      'threads WHERE id',
      'thread_messages WHERE thread_id',
      'thread_runs WHERE thread_id',
      'thread_summaries WHERE thread_id',
    ].map((from) => db.prepare<[string]>(`DELETE FROM ${from} = ?`)),
    archive: db.prepare<[string, string, string]>('UPDATE threads SET archived_at = ?, updated_at = ? WHERE id = ?'),
    count: db.prepare<[string], { message_count: number }>('SELECT message_count FROM threads WHERE id = ?'),
    addMessage: db.prepare<[string, number, string, string]>(
      'INSERT OR IGNORE INTO thread_messages (thread_id, seq, run_id, doc) VALUES (?, ?, ?, ?)',
    ),
    setCount: db.prepare<[number, string, string]>('UPDATE threads SET message_count = ?, updated_at = ? WHERE id = ?'),
    queueRun: db.prepare<[string, string, bigint]>(
      'INSERT OR IGNORE INTO thread_runs (run_id, thread_id, queued_at, open) VALUES (?, ?, ?, 1)',
    ),
    closeRun: db.prepare<[string]>('UPDATE thread_runs SET open = 0 WHERE run_id = ?'),
    get: db.prepare<[string], ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id = ?`),
    list: db.prepare<[string, number], ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id > ? ORDER BY t.id LIMIT ?`,
    ),
    listOfAgent: db.prepare<[string, string, number], ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.agent_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
    ),
    messages: db.prepare<[string, number, number], { seq: number; doc: string }>(
      'SELECT seq, doc FROM thread_messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    lastMessages: db.prepare<[string, number], { doc: string }>(
      'SELECT doc FROM thread_messages WHERE thread_id = ? ORDER BY seq DESC LIMIT ?',
    ),
    openRuns: db.prepare<[string], { run_id: string }>(
      'SELECT run_id FROM thread_runs WHERE thread_id = ? AND open = 1 ORDER BY queued_at',
    ),
    putSummary: db.prepare<[string, string, number]>(
      `INSERT INTO thread_summaries (thread_id, summary, through_seq) VALUES (?, ?, ?)
       ON CONFLICT (thread_id) DO UPDATE SET summary = excluded.summary, through_seq = excluded.through_seq
       WHERE excluded.through_seq > thread_summaries.through_seq`,
    ),
    summary: db.prepare<[string], { summary: string; through_seq: number }>(
      'SELECT summary, through_seq FROM thread_summaries WHERE thread_id = ?',
    ),
    between: db.prepare<[string, number, number], { doc: string }>(
      'SELECT doc FROM thread_messages WHERE thread_id = ? AND seq > ? AND seq < ? ORDER BY seq',
    ),
    isOpen: db.prepare<[string], { open: number }>('SELECT open FROM thread_runs WHERE run_id = ? AND open = 1'),
    openBefore: db.prepare<[string, string], { run_id: string }>(
      `SELECT run_id FROM thread_runs WHERE thread_id = ? AND open = 1
         AND queued_at < (SELECT queued_at FROM thread_runs WHERE run_id = ?) LIMIT 1`,
    ),
  };
}

/** `threads`, `thread_messages` and `thread_runs`: written by ThreadsProjection, read by the thread routes and the executor. */
@Injectable()
export class ThreadsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  /** Rows are written as each event is applied: nothing to gather per batch. */
  batch(work: () => void): void {
    work();
  }

  createThread({
    id,
    agentId,
    metadata,
    subjectId,
    createdAt,
  }: Omit<Thread, 'messageCount' | 'updatedAt' | 'archivedAt'>): void {
    this.statements.insertThread.run(id, agentId, JSON.stringify(metadata), subjectId ?? null, createdAt, createdAt);
  }

  /** The thread is gone, with its messages and summary: its subject was forgotten. */
  forget(threadId: string): void {
    for (const statement of this.statements.forget) statement.run(threadId);
  }

  archive(threadId: string, at: string): void {
    this.statements.archive.run(at, at, threadId);
  }

  /** Appends an exchange after the thread's messages, and settles its run. */
  addExchange(threadId: string, runId: string, messages: ThreadMessage[], at: string): void {
    const count = this.statements.count.get(threadId)?.message_count;
    if (count === undefined) return;
    messages.forEach((message, i) =>
      this.statements.addMessage.run(threadId, count + i, runId, JSON.stringify(message)),
    );
    this.statements.setCount.run(count + messages.length, at, threadId);
    this.statements.closeRun.run(runId);
  }

  /** A run queued on the thread at log position `position`: open until it settles. */
  runQueued(threadId: string, runId: string, position: bigint): void {
    this.statements.queueRun.run(runId, threadId, position);
  }

  /** A run that failed or was cancelled: settled, adding nothing. */
  runSettled(runId: string): void {
    this.statements.closeRun.run(runId);
  }

  get(threadId: string): ThreadView | undefined {
    const row = this.statements.get.get(threadId);
    return row && toView(row);
  }

  list(agentId: string | undefined, after: string, limit: number): Page<ThreadView> {
    const rows = agentId
      ? this.statements.listOfAgent.all(agentId, after, limit + 1)
      : this.statements.list.all(after, limit + 1);
    return toPage(rows.map(toView), limit);
  }

  /** Messages after `afterSeq`, oldest first, and the cursor (the last `seq`) when more follow. */
  messages(threadId: string, afterSeq: number, limit: number): { messages: ThreadMessage[]; next: number | null } {
    const rows = this.statements.messages.all(threadId, afterSeq, limit + 1);
    const page = rows.slice(0, limit);
    return {
      messages: page.map((row) => JSON.parse(row.doc) as ThreadMessage),
      next: rows.length > limit ? page[page.length - 1].seq : null,
    };
  }

  /** The thread's last `count` messages, oldest first. */
  lastMessages(threadId: string, count: number): ThreadMessage[] {
    if (count <= 0) return [];
    const rows = this.statements.lastMessages.all(threadId, count);
    return rows.reverse().map((row) => JSON.parse(row.doc) as ThreadMessage);
  }

  /** The thread's runs not settled yet, in the order they were queued. */
  openRuns(threadId: string): string[] {
    return this.statements.openRuns.all(threadId).map((row) => row.run_id);
  }

  summarized(threadId: string, summary: string, throughSeq: number): void {
    this.statements.putSummary.run(threadId, summary, throughSeq);
  }

  /** The thread's running summary and the last message it folds in (-1 and null: none yet). */
  summaryOf(threadId: string): { summary: string | null; throughSeq: number } {
    const row = this.statements.summary.get(threadId);
    return { summary: row?.summary ?? null, throughSeq: row?.through_seq ?? -1 };
  }

  /** The messages after `afterSeq` and before `beforeSeq`, oldest first. */
  messagesBetween(threadId: string, afterSeq: number, beforeSeq: number): ThreadMessage[] {
    return this.statements.between
      .all(threadId, afterSeq, beforeSeq)
      .map((row) => JSON.parse(row.doc) as ThreadMessage);
  }

  /** The number of messages the thread holds. */
  messageCount(threadId: string): number {
    return this.statements.count.get(threadId)?.message_count ?? 0;
  }

  /** Whether the run `runId` is on a thread and not settled yet (a run that succeeded: its exchange not added). */
  isRunOpen(runId: string): boolean {
    return this.statements.isOpen.get(runId) !== undefined;
  }

  /** Whether a run of the thread queued before the run `runId` is not settled yet. */
  hasOpenRunBefore(threadId: string, runId: string): boolean {
    return this.statements.openBefore.get(threadId, runId) !== undefined;
  }
}

function toView(row: ThreadRow): ThreadView {
  return {
    id: row.id,
    agentId: row.agent_id,
    subjectId: row.subject_id,
    status: row.open_runs > 0 ? 'busy' : 'idle',
    messageCount: row.message_count,
    summary: row.summary,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
  };
}
