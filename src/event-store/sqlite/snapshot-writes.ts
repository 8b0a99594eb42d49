import { StreamSnapshot } from '../event-store';

/** A snapshot as the writer thread takes it (see writer.worker.js). */
export interface SnapshotRow {
  stream: string;
  revision: number;
  schemaVersion: number;
  /** JSON text. */
  state: string;
  takenAt: number;
}

/** What the writer answers for one message of snapshots. */
export type SnapshotsReply = { snapshotsWritten: number; failure?: unknown };

interface Waiting {
  row: SnapshotRow;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The SQLite store's snapshot writes: those made in one turn of the event loop go to the writer thread as one
 * message, written in one transaction, so that many snapshots falling due at once (a schedule tick of many
 * workflows) cost the writer one transaction rather than one each.
 */
export class SqliteSnapshotWrites {
  private gathering: Waiting[] = [];
  private readonly sent = new Map<number, Waiting[]>();
  private lastMessage = 0;

  /** `post` hands a message to the writer; `changed` is called whenever `busy` may have changed. */
  constructor(
    private readonly post: (message: { snapshots: { id: number; rows: SnapshotRow[] } }) => void,
    private readonly changed: () => void,
  ) {}

  /** Whether a snapshot is waiting to be sent or for the writer's answer. */
  get busy(): boolean {
    return this.gathering.length > 0 || this.sent.size > 0;
  }

  write(stream: string, snapshot: StreamSnapshot, takenAt: number): Promise<void> {
    let state: string | undefined;
    try {
      state = JSON.stringify(snapshot.state);
    } catch (error) {
      return Promise.reject(error);
    }
    if (state === undefined) return Promise.reject(new Error(`The snapshot of ${stream} has no JSON state`));
    const row = { stream, revision: Number(snapshot.revision), schemaVersion: snapshot.schemaVersion, state, takenAt };
    return new Promise((resolve, reject) => {
      if (this.gathering.length === 0) setImmediate(() => this.send());
      this.gathering.push({ row, resolve, reject });
      this.changed();
    });
  }

  settle({ snapshotsWritten, failure }: SnapshotsReply): void {
    const waiting = this.sent.get(snapshotsWritten) ?? [];
    this.sent.delete(snapshotsWritten);
    this.changed();
    for (const write of waiting) {
      if (failure !== undefined) write.reject(failure);
      else write.resolve();
    }
  }

  /** The writer is gone: every snapshot waiting fails with `error`. */
  fail(error: unknown): void {
    const waiting = [...this.gathering, ...[...this.sent.values()].flat()];
    this.gathering = [];
    this.sent.clear();
    for (const write of waiting) write.reject(error);
  }

  private send(): void {
    const batch = this.gathering;
    this.gathering = [];
    if (batch.length === 0) return;
    const id = ++this.lastMessage;
    this.sent.set(id, batch);
    this.post({ snapshots: { id, rows: batch.map((write) => write.row) } });
  }
}
