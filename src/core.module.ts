import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { withAppendSpans } from './telemetry/traced-event-store';
import { SUBJECT_KEYS, SubjectKeys } from './event-store/sealing/subject-keys';
import { withSealing } from './event-store/sealing/sealing-event-store';
import { KeyStreams } from './event-store/sealing/key-streams';
import {
  DynamicModule,
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Provider,
} from '@nestjs/common';
import type Database from 'better-sqlite3';
import { ACTOR_OPTIONS, ActorRegistry, DEFAULT_MAX_ATTEMPTS } from './actors/actor-registry';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { CHECKPOINT_STORE } from './consumers/checkpoint-store';
import { ProcessManagerDeps, READ_SIDE } from './consumers/process-manager';
import { EVENT_STORE, EventStore } from './event-store/event-store';
import { openEventStore } from './event-store/open-event-store';
import { SqliteEventStore } from './event-store/sqlite/sqlite-event-store';
import { ProjectionRunner } from './read-models/projection-runner';
import { READ_DATABASE, openReadDatabase } from './read-models/read-database';
import { SqliteCheckpointStore } from './read-models/sqlite-checkpoint-store';
import { ReadModelSnapshots } from './read-models/snapshots/read-model-snapshots';
import { restoreSnapshot } from './read-models/snapshots/restore-snapshot';
import { RunFeed } from './live/run-feed';
import { StreamWatch } from './live/stream-watch';
import { AppliedEvents } from './read-models/applied-events';
import { ReadModelReadiness } from './read-models/read-model-readiness';
import { ReadYourWrites } from './read-models/read-your-writes';
import { Clock, SystemClock } from './shared/clock';
import { DATA_FOLDER_LOCK, DataFolderLock } from './shared/data-folder-lock';
import { IdGenerator, UlidIdGenerator } from './shared/ids';

export interface CoreOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  store?: EventStore;
  /** Spans go here instead of an OTLP endpoint, and tracing is on (tests). */
  spanExporter?: SpanExporter;
}

/**
 * What every feature shares: configuration, time, ids, the event store, the read database, actors, projections and
 * what follows them (read-your-writes, readiness, the after-commit bus), and the live feeds of streams and runs.
 */
@Global()
@Module({})
export class CoreModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CoreModule.name);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DATABASE) private readonly readDatabase: Database.Database,
    private readonly projections: ProjectionRunner,
    private readonly snapshots: ReadModelSnapshots,
    @Inject(DATA_FOLDER_LOCK) private readonly lock: DataFolderLock,
    @Inject(SUBJECT_KEYS) private readonly subjectKeys: SubjectKeys | null,
  ) {}

  static forRoot(config: AppConfig, overrides: CoreOverrides = {}): DynamicModule {
    /** Whether the log is the embedded SQLite store, in the data folder with the subject keys. */
    let embeddedStore = true;
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: Clock, useValue: overrides.clock ?? new SystemClock() },
      { provide: IdGenerator, useValue: overrides.ids ?? new UlidIdGenerator() },
      // Taken before anything in the data folder is opened; the stores depend on it.
      { provide: DATA_FOLDER_LOCK, useFactory: () => DataFolderLock.acquire(config.dataDir) },
      {
        provide: SUBJECT_KEYS,
        useFactory: () => {
          const secret = config.subjects.dataKeySecret;
          return secret ? new SubjectKeys(join(config.dataDir, 'subject-keys.sqlite'), secret) : null;
        },
        inject: [DATA_FOLDER_LOCK],
      },
      {
        provide: EVENT_STORE,
        useFactory: (keys: SubjectKeys | null) => {
          const store = overrides.store ?? openEventStore(config);
          embeddedStore = store instanceof SqliteEventStore;
          const traced = config.telemetry.tracesEndpoint || overrides.spanExporter ? withAppendSpans(store) : store;
          if (!keys) return traced;
          // On EventStoreDB several instances may share the store: the keys are shared through it.
          const shared = embeddedStore ? undefined : new KeyStreams(traced, keys);
          if (shared) keys.shareThrough(shared);
          return withSealing(traced, keys, shared);
        },
        inject: [SUBJECT_KEYS, DATA_FOLDER_LOCK],
      },
      {
        provide: READ_DATABASE,
        useFactory: async (store: EventStore) => {
          const file = join(config.dataDir, 'read-models.sqlite');
          // A new instance starts from the newest snapshot that fits, when there is a folder of them.
          const snapshots = config.readModelSnapshots.dir;
          if (snapshots && config.subjects.dataKeySecret && !embeddedStore && !existsSync(file)) {
            // Which streams and namespaces are about which subject is learnt from the log as it is read: a new
            // data folder learns it all only by reading the log from its start.
            new Logger('ReadModelSnapshots').warn(
              'Read-model snapshots are not restored with DATA_KEY_SECRET on EventStoreDB: which streams and namespaces are about which subject is learnt from the whole log, so the read models are built from it',
            );
          } else if (snapshots) await restoreSnapshot(snapshots, file, store);
          return openReadDatabase(file);
        },
        inject: [EVENT_STORE, DATA_FOLDER_LOCK],
      },
      {
        provide: CHECKPOINT_STORE,
        useFactory: (db: Database.Database) => new SqliteCheckpointStore(db),
        inject: [READ_DATABASE],
      },
      {
        provide: ACTOR_OPTIONS,
        useValue: {
          cacheSize: config.actorCacheSize,
          maxAttempts: DEFAULT_MAX_ATTEMPTS,
          snapshotEvery: config.snapshotEvery,
        },
      },
      ActorRegistry,
      AppliedEvents,
      ProjectionRunner,
      ReadModelSnapshots,
      // The background workers wait for the read models through this port, which consumers/ declares.
      { provide: READ_SIDE, useExisting: ProjectionRunner },
      ProcessManagerDeps,
      ReadYourWrites,
      ReadModelReadiness,
      StreamWatch,
      RunFeed,
    ];
    return { module: CoreModule, providers, exports: providers };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.logger.log(`Event store: ${this.store.description}`);
    if (!this.subjectKeys) {
      this.logger.warn(
        'DATA_KEY_SECRET is not set: content about subjects is stored as it is, and cannot be forgotten',
      );
    }
    const started = Date.now();
    await this.projections.start();
    this.logger.log(`Read models caught up at position ${this.projections.position} in ${Date.now() - started} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projections.stop();
    await this.snapshots.writeAtShutdown();
    await this.store.close();
    this.readDatabase.close();
    this.subjectKeys?.close();
    this.lock.release();
  }
}
