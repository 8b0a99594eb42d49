'use strict';
// The SQLite event store's read-ahead, on a worker thread: while a subscription that is behind hands one batch of
// the log to its handler, the next batch is read here. Plain JavaScript, so that the same file runs from src
// (tests) and dist.
//
// In (workerData): { driver: path of better-sqlite3, file, cacheSize }.
// In (messages): { id, sql, params }: a SELECT of the events' columns (see EVENT_COLUMNS in event-rows.ts).
// Out: { id, rows } (each row an array, as better-sqlite3's raw mode gives it) or { id, failure: { code, message } }.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma(`cache_size = ${workerData.cacheSize}`);
const statements = new Map();

function statement(sql) {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql).raw(true);
    statements.set(sql, prepared);
  }
  return prepared;
}

parentPort.on('message', ({ id, sql, params }) => {
  try {
    parentPort.postMessage({ id, rows: statement(sql).all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, failure: { code: error?.code, message: String(error?.message ?? error) } });
  }
});
