import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store';
import { PrefixedEventStore } from '../../src/event-store/prefixed-event-store';
import { EventStoreDbTestDouble } from './eventstoredb-test-double';

/** The backing store of one e2e test, shared by every app instance the test starts (restarts, second instances). */
export interface StoreFixture {
  readonly name: string;
  /** A new client for one app instance; undefined lets the app open SQLite in its own data folder. */
  connect(options?: { deadlineMs?: number; retryInitialMs?: number }): EventStore | undefined;
  /** The EventStoreDB test double behind this fixture, for tests that take the server down. */
  readonly double?: EventStoreDbTestDouble;
  stop(): Promise<void>;
}

type FixtureFactory = () => Promise<StoreFixture>;

const sqlite: FixtureFactory = async () => ({ name: 'sqlite', connect: () => undefined, stop: async () => undefined });

const testDouble: FixtureFactory = async () => {
  const double = await EventStoreDbTestDouble.create();
  return {
    name: 'eventstoredb test double',
    double,
    connect: (options = {}) =>
      new EventStoreDbEventStore({
        url: double.connectionString,
        deadlineMs: options.deadlineMs ?? 2000,
        retryInitialMs: options.retryInitialMs,
      }),
    stop: () => double.close(),
  };
};

/** A real server is shared by every test, so each test writes under a stream prefix of its own. */
const realServer =
  (url: string): FixtureFactory =>
  async () => {
    const prefix = `e2e${randomUUID().replace(/-/g, '')}`;
    return {
      name: 'eventstoredb',
      connect: (options = {}) =>
        new PrefixedEventStore(new EventStoreDbEventStore({ url, deadlineMs: options.deadlineMs }), prefix),
      stop: async () => undefined,
    };
  };

/** `[name, factory]` for `describe.each`: SQLite, the EventStoreDB test double, and a real server when EVENTSTORE_URL is set. */
export function storeFixtures(): Array<[string, FixtureFactory]> {
  const fixtures: Array<[string, FixtureFactory]> = [
    ['sqlite', sqlite],
    ['eventstoredb test double', testDouble],
  ];
  const url = process.env.EVENTSTORE_URL;
  if (url) fixtures.push(['eventstoredb at EVENTSTORE_URL', realServer(url)]);
  return fixtures;
}
