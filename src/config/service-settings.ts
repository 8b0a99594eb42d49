import { join } from 'node:path';
import { oneOf } from '../shared/env';
import { Settings, choice, custom, flag, int } from '../shared/settings';
import { HOUR } from './units';

/** How the SQLite store syncs its commits (the adapter declares the same modes). */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

/**
 * A snapshot every 1,000 events: a load then reads at most that many events after it. The actor registry falls back
 * to it too, when it is made without the configuration (in tests).
 */
export const DEFAULT_SNAPSHOT_EVERY = 1000;

/** A snapshot of the read models every 100,000 events: a new instance then reads at most about that many (half a second). */
export const DEFAULT_READ_MODEL_SNAPSHOT_EVERY = 100_000;

/** The log formats `LOG_FORMAT` names (unset: decided by where the logs go, see operations/logging.ts). */
export const LOG_FORMATS = ['json', 'pretty'] as const;

/** Where the service listens and keeps its data, its event store, its actors' cache, its logs and its scheduler. */
export const SERVICE_SETTINGS = {
  port: int('PORT', 3000, 0, 65535, 'HTTP port.'),
  host: custom({ name: 'HOST', default: '0.0.0.0', meaning: 'Address to listen on.' }, (env) => env.HOST ?? '0.0.0.0'),
  dataDir: custom(
    {
      name: 'DATA_DIR',
      note: '`./data`',
      meaning:
        'Folder for `events.sqlite` (the event log, on the SQLite store) and `read-models.sqlite` (the lists, on either store). One process per folder: a second one is refused at start (see [Errors and limits](api.md#errors-and-limits)).',
    },
    (env) => env.DATA_DIR ?? join(process.cwd(), 'data'),
  ),
  eventStoreUrl: custom(
    {
      name: 'EVENTSTORE_URL',
      meaning:
        'An `esdb://` or `esdb+discover://` connection string: the events go to EventStoreDB instead of SQLite (see [Running on EventStoreDB](eventstoredb.md)). Unset: the embedded SQLite store.',
    },
    (env) => eventStoreUrl(env.EVENTSTORE_URL),
  ),
  eventStoreDeadlineMs: int(
    'EVENTSTORE_DEADLINE_MS',
    5000,
    100,
    600_000,
    'Upper bound on each EventStoreDB call; past it the request answers `503`.',
  ),
  streamPrefix: custom(
    {
      name: 'STREAM_PREFIX',
      meaning:
        'Prefixes every stream name (`<prefix>-agent-…`), so several deployments can share one EventStoreDB. Letters, digits, `_`, `.` and `-`.',
    },
    (env) => streamPrefix(env.STREAM_PREFIX),
  ),
  sqliteSynchronous: choice(
    'SQLITE_SYNCHRONOUS',
    ['FULL', 'NORMAL'] as const satisfies readonly SqliteSynchronous[],
    'FULL',
    '`FULL`: a 2xx means the events are synced to disk and survive power loss. `NORMAL`: faster, and they survive a crash of the process, but the last commits before a power loss or OS crash can be lost.',
  ),
  readYourWritesTimeoutMs: int(
    'READ_YOUR_WRITES_TIMEOUT_MS',
    5000,
    0,
    60_000,
    'How long a write waits for the lists to show it before answering anyway (its events are durable either way).',
  ),
  actorCacheSize: int(
    'ACTOR_CACHE_SIZE',
    10_000,
    1,
    10_000_000,
    'How many aggregates stay cached in memory; the least recently used idle ones are dropped. Keep it above the number of scheduled workflows, or each tick re-reads their streams.',
  ),
  snapshotEvery: int(
    'SNAPSHOT_EVERY',
    DEFAULT_SNAPSHOT_EVERY,
    0,
    1_000_000_000,
    "A workflow's state is saved as a snapshot each time it has moved this many events past the last one, so that loading it reads the snapshot and at most this many events instead of the whole stream (see [Snapshots](architecture.md#snapshots)). `0`: no snapshots, neither read nor written.",
  ),
  readModelSnapshots: {
    dir: custom(
      {
        name: 'READ_MODEL_SNAPSHOT_DIR',
        meaning:
          'A folder (a volume the instances share) for snapshots of the read models: each instance writes one every `READ_MODEL_SNAPSHOT_EVERY` events and at shutdown, and an instance that starts without `read-models.sqlite` restores the newest that fits and catches up from its checkpoint, instead of reading the whole log (see [Scaling out](scaling.md#new-instances-from-a-snapshot)). Unset: no snapshots.',
      },
      (env) => env.READ_MODEL_SNAPSHOT_DIR?.trim() || undefined,
    ),
    every: int(
      'READ_MODEL_SNAPSHOT_EVERY',
      DEFAULT_READ_MODEL_SNAPSHOT_EVERY,
      0,
      1_000_000_000,
      'With `READ_MODEL_SNAPSHOT_DIR`: a snapshot of the read models each time they have applied this many events since the last one. `0`: only at shutdown.',
    ),
  },
  logLevel: choice(
    'LOG_LEVEL',
    ['error', 'warn', 'log', 'debug'] as const,
    'log',
    'Which log lines are written: those of this level and the more severe ones.',
  ),
  logFormat: custom(
    {
      name: 'LOG_FORMAT',
      note: '`pretty` when standard output is a terminal, else `json`',
      meaning:
        '`json`: one JSON object a line, for log collectors. `pretty`: one readable, coloured line each (pino-pretty), for a terminal.',
      values: LOG_FORMATS,
    },
    (env) => (env.LOG_FORMAT ? oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'json') : undefined),
  ),
  schedulerEnabled: flag(
    'SCHEDULER_ENABLED',
    true,
    'Whether this instance runs the cron schedules. Any number of instances may: each tick still runs once.',
  ),
  scheduleCatchUpWindowMs: int(
    'SCHEDULE_CATCH_UP_WINDOW_MS',
    300_000,
    0,
    31 * 24 * HOUR,
    'After downtime, the latest missed tick still runs if it is at most this old; `0` runs none. See [Schedules](api.md#schedules).',
    '5 min',
  ),
  schedulePrepareAheadMs: int(
    'SCHEDULE_PREPARE_AHEAD_MS',
    10_000,
    0,
    HOUR,
    "A tick's runs are decided and encoded this long before it, so that at the tick only their commit is left; `0` decides them at the tick. See [Schedules](api.md#schedules).",
    '10 s',
  ),
} satisfies Settings;

function eventStoreUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^esdb(\+discover)?:\/\//.test(raw))
    throw new Error('EVENTSTORE_URL must be an esdb:// or esdb+discover:// connection string');
  return raw;
}

function streamPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '';
  if (!/^[A-Za-z0-9_.-]+$/.test(raw) || raw.startsWith('$')) {
    throw new Error('STREAM_PREFIX may hold only letters, digits, "_", "." and "-"');
  }
  return raw;
}
