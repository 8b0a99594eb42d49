import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const READER_SCRIPT = join(__dirname, 'reader.worker.js');

/** How long an idle reader thread is kept for the next catch-up before it is stopped (it holds a V8 heap). */
const IDLE_MS = 1000;

interface Read {
  resolve(rows: unknown[][]): void;
  reject(error: unknown): void;
}

/** The thread, and the reads it has in hand. */
interface Reader {
  worker: Worker;
  reads: Map<number, Read>;
}

/**
 * Reads of the log on a thread of their own (reader.worker.js), for subscriptions that are behind: the
 * next batch is read there while this thread hands the last one to the projections, so a rebuild pays for the
 * projections and the decoding, not for SQLite's reads too. The thread starts on the first read and stops once
 * idle for a moment; while a read is pending it keeps the process alive.
 */
export class SqliteReadAhead {
  private reader?: Reader;
  private lastId = 0;
  private idleTimer?: NodeJS.Timeout;

  /** `cacheSize`: SQLite's cache_size for the thread's connection. */
  constructor(
    private readonly file: string,
    private readonly cacheSize: number,
  ) {}

  /** The rows of `sql` with `params`, read on the reader thread. */
  read(sql: string, params: unknown[]): Promise<unknown[][]> {
    const { worker, reads } = this.started();
    clearTimeout(this.idleTimer);
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      reads.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const reader = this.reader;
    this.reader = undefined;
    await reader?.worker.terminate();
  }

  private started(): Reader {
    if (this.reader) return this.reader;
    const worker = new Worker(READER_SCRIPT, {
      workerData: { driver: require.resolve('better-sqlite3'), file: this.file, cacheSize: this.cacheSize },
    });
    const reader: Reader = { worker, reads: new Map() };
    worker.on('message', ({ id, rows, failure }: { id: number; rows?: unknown[][]; failure?: { message: string } }) => {
      const read = reader.reads.get(id);
      reader.reads.delete(id);
      if (reader.reads.size === 0) this.idle(reader);
      if (failure) read?.reject(Object.assign(new Error(failure.message), failure));
      else read?.resolve(rows!);
    });
    const fail = (error: unknown) => {
      if (this.reader === reader) this.reader = undefined;
      for (const read of reader.reads.values()) read.reject(error);
      reader.reads.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The reader thread exited with code ${code}`)));
    // After the listeners: adding the first 'message' listener refs the thread's port again.
    worker.unref();
    this.reader = reader;
    return reader;
  }

  /** The thread no longer keeps the process alive, and stops unless another read comes soon. */
  private idle(reader: Reader): void {
    reader.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS).unref();
  }
}
