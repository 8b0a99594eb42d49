'use strict';
// The SQLite event store's writer, on a worker thread: it commits batches of appends, so that the disk sync of a
// commit never stops the main thread. Plain JavaScript, so that the same file runs from src (tests) and dist.
//
// In (workerData): { driver: path of better-sqlite3, file, synchronous, busyTimeoutMs, cacheSize }.
// In (messages): a batch of appends, as batch-encoder.ts encodes it (see writer-protocol.ts): UTF-8 bytes and two arrays of numbers.
//                 Each append is all or nothing over its parts (one part: an ordinary append; several: a
//                 multi-stream append); every event of the batch is recorded at its recordedAt.
// Out: per append, in one array of numbers, ok, conflict or failure (see WriterReply there), and the log's head
//      before and after the commit; or { batchFailure: { code, message } }.
// Also in: { snapshots: { id, rows: [{ stream, revision, schemaVersion, state (JSON text), takenAt }] } }, streams'
// snapshots (each replaces the stream's one before), in one transaction; out: { snapshotsWritten: id, failure? }.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${workerData.synchronous}`);
db.pragma(`busy_timeout = ${workerData.busyTimeoutMs}`);
db.pragma(`cache_size = ${workerData.cacheSize}`);

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

/** A request half written: an insert failed after its checks had passed. The batch is redone with savepoints. */
class HalfWritten extends Error {
  constructor(cause) {
    super(`An append failed half-way: ${String(cause?.message ?? cause)}`);
    this.cause = cause;
  }
}

function appendPart({ stream, events, expected }, recordedAt, part) {
  // Expecting no stream needs no look-up: should the stream exist, revision 0 is taken and the insert fails.
  const last = expected === 'no_stream' ? null : (lastRevision.get(stream)?.revision ?? null);
  if (!expectationHolds(expected, last)) throw new Conflict(part);
  try {
    return insertPart(stream, events, last, recordedAt);
  } catch (error) {
    if (error?.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new Conflict(part);
    throw error;
  }
}

function insertPart(stream, events, last, recordedAt) {
  let revision = last === null ? 0 : last + 1;
  let position = 0;
  for (const event of events) {
    const info = insert.run(event.id, stream, revision++, event.type, event.data, event.metadata, recordedAt);
    position = Number(info.lastInsertRowid);
  }
  return { nextRevision: revision - 1, position };
}

function appendNow({ parts }, recordedAt) {
  return parts.map((part, i) => appendPart(part, recordedAt, i));
}

// In a savepoint, one append failing half-way does not undo the others in the batch.
const appendInSavepoint = db.transaction(appendNow);

/**
 * Several events without a savepoint (which would cost as much as the inserts): whatever could refuse the append
 * (an expectation, an event id stored before) is checked before anything is written. Should an insert fail all
 * the same (an id twice in the append, a full disk), the append is half written: HalfWritten undoes the batch.
 */
function appendChecked(request, recordedAt) {
  const { parts } = request;
  // A stream named twice: the second part's expectation depends on the first part's events.
  if (new Set(parts.map((part) => part.stream)).size < parts.length) return appendInSavepoint(request, recordedAt);
  const lasts = parts.map(({ stream, expected }, part) => {
    const last = lastRevision.get(stream)?.revision ?? null;
    if (!expectationHolds(expected, last)) throw new Conflict(part);
    return last;
  });
  parts.forEach(({ events }, part) => {
    if (events.some((event) => findById.get(event.id))) throw new Conflict(part);
  });
  try {
    return parts.map(({ stream, events }, i) => insertPart(stream, events, lasts[i], recordedAt));
  } catch (error) {
    throw new HalfWritten(error);
  }
}

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
// `savepoints`: each append of several events in a savepoint of its own, when checking first was not enough.
const commitBatch = db.transaction((batch, recordedAt, savepoints) => {
  const headBefore = head.get().position ?? 0;
  const outcomes = batch.map((request) => {
    try {
      if (request.parts.length === 1 && request.parts[0].events.length === 1)
        return { ok: appendNow(request, recordedAt) };
      return { ok: savepoints ? appendInSavepoint(request, recordedAt) : appendChecked(request, recordedAt) };
    } catch (error) {
      if (error instanceof HalfWritten) throw error;
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

/** The appends of a batch (see WriterBatch in writer-protocol.ts). */
function decodeBatch({ shape, lengths, bytes }) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let piece = 0;
  const next = () => text.toString('utf8', at, (at += lengths[piece++]));
  const requests = [];
  for (let s = 0; s < shape.length;) {
    const parts = [];
    for (let count = shape[s++]; count > 0; count--) {
      const events = [];
      const eventCount = shape[s++];
      const stream = next();
      const expected = next();
      for (let e = 0; e < eventCount; e++) events.push({ id: next(), type: next(), data: next(), metadata: next() });
      parts.push({ stream, expected, events });
    }
    requests.push({ parts });
  }
  return requests;
}

const OK = 0;
const CONFLICT = 1;
const FAILURE = 2;

/** The outcomes as numbers (see WriterReply in writer-protocol.ts). */
function encodeReply({ outcomes, headBefore, headAfter }) {
  const results = [];
  const failures = [];
  for (const outcome of outcomes) {
    if (outcome.ok) {
      results.push(OK);
      for (const { nextRevision, position } of outcome.ok) results.push(nextRevision, position);
    } else if (outcome.conflict) results.push(CONFLICT, outcome.conflict.part, outcome.conflict.actual ?? -1);
    else results.push(FAILURE, failures.push(outcome.failure) - 1);
  }
  return { results: Float64Array.from(results), failures, headBefore, headAfter };
}

function commitNow(message) {
  const batch = decodeBatch(message);
  const { recordedAt } = message;
  try {
    return commitBatch.immediate(batch, recordedAt, false);
  } catch (error) {
    if (!(error instanceof HalfWritten)) throw error;
    return commitBatch.immediate(batch, recordedAt, true);
  }
}

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
    // The bytes go back (moved, not copied): the other side decodes them again for its live subscriptions.
    const reply = { ...encodeReply(commitNow(message)), bytes: message.bytes };
    parentPort.postMessage(reply, [message.bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ batchFailure: { code: error?.code, message: String(error?.message ?? error) } });
  }
});
