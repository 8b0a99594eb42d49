'use strict';
// Copies the read database for a snapshot, on a worker thread of its own so that the copy never holds up the event
// loop: `VACUUM INTO` on a read-only connection reads one consistent state of the file (the read models go on
// writing meanwhile, through the write-ahead log) and writes it anew, without the free pages where deleted rows may
// linger. Plain JavaScript, so that the same file runs from src (tests) and dist.
//
// In (workerData): { driver: path of better-sqlite3, source, target }.
// Out: one message, { done: true } or { failure: message }, then the thread ends.
const { closeSync, fsyncSync, openSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

try {
  const source = new Database(workerData.source, { readonly: true, fileMustExist: true });
  try {
    source.prepare('VACUUM INTO ?').run(workerData.target);
  } finally {
    source.close();
  }
  const copy = new Database(workerData.target);
  try {
    // One file, no write-ahead log beside it: the snapshot is copied as it is.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const fd = openSync(workerData.target, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ done: true });
} catch (error) {
  parentPort.postMessage({ failure: String(error?.message ?? error) });
}
