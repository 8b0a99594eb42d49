'use strict';
// The SQLite event store's writer, on a worker thread: it commits batches of appends, so that the disk sync of a
// commit never stops the main thread. Plain JavaScript, so that the same file runs from src (tests) and dist.
//
// In (workerData): { driver: path of better-sqlite3, file, synchronous, busyTimeoutMs }.
// In (messages): { batch: [{ recordedAt, parts: [{ stream, events: [{ id, type, data, metadata }] (data, metadata as
//                  JSON text), expected: 'any' | 'no_stream' | 'stream_exists' | '<revision>' }] }] }: each request is
//                  all or nothing over its parts (one part: an ordinary append; several: a multi-stream append).
// Out: { outcomes: [{ ok: [{ nextRevision, position }] (per part) } | { conflict: { part, actual } }
//        | { failure: { code, message } }], headBefore, headAfter } or { batchFailure: { code, message } }.
// Also in: { snapshots: { id, rows: [{ stream, revision, schemaVersion, state (JSON text), takenAt }] } }, streams'
// snapshots (each replaces the stream's one before), in one transaction; out: { snapshotsWritten: id, failure? }.
// Revisions and positions are numbers.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${workerData.synchronous}`);
db.pragma(`busy_timeout = ${workerData.busyTimeoutMs}`);

const lastRevision = db.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
const findById = db.prepare('SELECT stream, revision, position FROM events WHERE id = ?');
const head = db.prepare('SELECT max(position) AS position FROM events');
const insert = db.prepare(
  'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);

const upsertSnapshot = db.prepare(
  `INSERT INTO snapshots (stream, revision, schema_version, state, taken_at) VALUES (?, ?, ?, ?, ?)
   ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, schema_version = excluded.schema_version,
     state = excluded.state, taken_at = excluded.taken_at`,
);
const syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
const syncAsConfigured = db.prepare(`PRAGMA synchronous = ${workerData.synchronous}`);

const upsertSnapshots = db.transaction((rows) => {
  for (const { stream, revision, schemaVersion, state, takenAt } of rows)
    upsertSnapshot.run(stream, revision, schemaVersion, state, takenAt);
});

/** Snapshots are a cache: their commit is not synced (in WAL mode, NORMAL syncs at checkpoints only). */
function writeSnapshots(rows) {
  syncNormal.run();
  try {
    upsertSnapshots(rows);
  } finally {
    syncAsConfigured.run();
  }
}

class Conflict extends Error {
  constructor(part) {
    super('conflict');
    this.part = part;
  }
}

function expectationHolds(expected, last) {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return last === null;
  if (expected === 'stream_exists') return last !== null;
  return last !== null && String(last) === expected;
}

function appendPart({ stream, events, expected }, recordedAt, part) {
  // Expecting no stream needs no look-up: should the stream exist, revision 0 is taken and the insert fails.
  const last = expected === 'no_stream' ? null : (lastRevision.get(stream)?.revision ?? null);
  if (!expectationHolds(expected, last)) throw new Conflict(part);
  let revision = last === null ? 0 : last + 1;
  let position = 0;
  for (const event of events) {
    try {
      const info = insert.run(event.id, stream, revision++, event.type, event.data, event.metadata, recordedAt);
      position = Number(info.lastInsertRowid);
    } catch (error) {
      if (error?.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new Conflict(part);
      throw error;
    }
  }
  return { nextRevision: revision - 1, position };
}

function appendNow({ parts, recordedAt }) {
  return parts.map((part, i) => appendPart(part, recordedAt, i));
}

// Several events go in a savepoint, so one append failing half-way does not undo the others in the batch.
const appendInSavepoint = db.transaction(appendNow);

/** The result of the earlier append, if `request` repeats it: the same ids, in order, under the same expectation. */
function repeatedAppend({ stream, events, expected }) {
  const stored = events.map((event) => findById.get(event.id));
  const first = stored[0];
  if (!first || !stored.every((row, i) => row?.stream === stream && row.revision === first.revision + i)) return;
  if (!expectationHolds(expected, first.revision === 0 ? null : first.revision - 1)) return;
  const last = stored[stored.length - 1];
  return { nextRevision: last.revision, position: last.position };
}

// Immediate: the write lock is taken first, so no other process commits between the two heads it reads.
const commitBatch = db.transaction((batch) => {
  const headBefore = head.get().position ?? 0;
  const outcomes = batch.map((request) => {
    try {
      const single = request.parts.length === 1 && request.parts[0].events.length === 1;
      return { ok: single ? appendNow(request) : appendInSavepoint(request) };
    } catch (error) {
      // A refused append may be a repeat of one already stored: that is a no-op, not a conflict.
      if (!(error instanceof Conflict))
        return { failure: { code: error?.code, message: String(error?.message ?? error) } };
      const repeated = request.parts.map(repeatedAppend);
      if (repeated.every(Boolean)) return { ok: repeated };
      const stream = request.parts[error.part].stream;
      return { conflict: { part: error.part, actual: lastRevision.get(stream)?.revision ?? null } };
    }
  });
  return { outcomes, headBefore, headAfter: head.get().position ?? 0 };
});

parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  if (message.snapshots) {
    const { id, rows } = message.snapshots;
    try {
      writeSnapshots(rows);
      parentPort.postMessage({ snapshotsWritten: id });
    } catch (error) {
      parentPort.postMessage({
        snapshotsWritten: id,
        failure: { code: error?.code, message: String(error?.message ?? error) },
      });
    }
    return;
  }
  try {
    parentPort.postMessage(commitBatch.immediate(message.batch));
  } catch (error) {
    parentPort.postMessage({ batchFailure: { code: error?.code, message: String(error?.message ?? error) } });
  }
});
