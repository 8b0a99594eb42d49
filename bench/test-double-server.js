'use strict';
// Runs the EventStoreDB TEST DOUBLE (not EventStoreDB) in its own process and prints its connection string.
// Built by `npm run build:bench`. Figures measured on it describe our adapter and the gRPC path, not EventStoreDB.
// SEED_FILE: a file of JSON lines `[stream, type, data]`, written into the double before it is announced, for
// histories too long to append over gRPC in a benchmark's time.
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
const { EventStoreDbTestDouble } = require('../dist-bench/test/support/eventstoredb-test-double');

async function seed(double, file) {
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line) double.inject(...JSON.parse(line));
  }
}

EventStoreDbTestDouble.create({ batchAppend: process.env.BATCH_APPEND === 'true' }).then(async (double) => {
  if (process.env.SEED_FILE) await seed(double, process.env.SEED_FILE);
  process.stdout.write(`${double.connectionString}\n`);
  process.on('SIGTERM', () => double.close().then(() => process.exit(0)));
});
