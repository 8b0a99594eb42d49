import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config';
import { EventStore } from './event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { PrefixedEventStore } from './prefixed-event-store';
import { SqliteEventStore } from './sqlite-event-store';

/** EventStoreDB when `EVENTSTORE_URL` is set, else the embedded SQLite store in the data folder. */
export function openEventStore(config: AppConfig): EventStore {
  const store = config.eventStoreUrl
    ? new EventStoreDbEventStore({ url: config.eventStoreUrl, deadlineMs: config.eventStoreDeadlineMs })
    : openSqlite(config);
  return config.streamPrefix ? new PrefixedEventStore(store, config.streamPrefix) : store;
}

function openSqlite(config: AppConfig): SqliteEventStore {
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({ file: join(config.dataDir, 'events.sqlite'), synchronous: config.sqliteSynchronous });
}
