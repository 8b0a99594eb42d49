import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { EventStore } from './event-store';
import { PrefixedEventStore } from './prefixed-event-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

/** EventStoreDB when `EVENTSTORE_URL` is set, else the embedded SQLite store in the data folder. */
export function openEventStore(config: AppConfig): EventStore {
  const store = config.eventStoreUrl ? openEventStoreDb(config.eventStoreUrl, config) : openSqlite(config);
  return config.streamPrefix ? new PrefixedEventStore(store, config.streamPrefix) : store;
}

/** Its client (gRPC, protobuf) is loaded only when used: it takes a noticeable part of the start otherwise. */
function openEventStoreDb(url: string, config: AppConfig): EventStore {
  const { EventStoreDbEventStore } =
    require('./eventstoredb/eventstoredb-event-store') as typeof import('./eventstoredb/eventstoredb-event-store');
  return new EventStoreDbEventStore({ url, deadlineMs: config.eventStoreDeadlineMs });
}

function openSqlite(config: AppConfig): SqliteEventStore {
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({ file: join(config.dataDir, 'events.sqlite'), synchronous: config.sqliteSynchronous });
}
