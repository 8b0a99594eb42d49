'use strict';
// Runs the EventStoreDB TEST DOUBLE (not EventStoreDB) in its own process and prints its connection string.
// Built by `npm run build:bench`. Figures measured on it describe our adapter and the gRPC path, not EventStoreDB.
const { EventStoreDbTestDouble } = require('../dist-bench/test/support/eventstoredb-test-double');

EventStoreDbTestDouble.create({ batchAppend: process.env.BATCH_APPEND === 'true' }).then((double) => {
  process.stdout.write(`${double.connectionString}\n`);
  process.on('SIGTERM', () => double.close().then(() => process.exit(0)));
});
