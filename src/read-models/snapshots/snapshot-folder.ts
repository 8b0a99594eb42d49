import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { writeDurably } from '../../shared/durable-files';
import { schemaFingerprint } from './read-model-schema';

/** What a snapshot's JSON file beside it says of it. */
export interface SnapshotMeta {
  /** The copy of the read database, in the same folder. */
  file: string;
  /** The fingerprint of its schema (see read-model-schema.ts). */
  schema: string;
  /** The id of the first event of the log it was built from: a snapshot of another store is never restored. */
  store: string;
  /** The furthest checkpoint in it: the log must reach at least this far. */
  position: string;
  createdAt: string;
}

/** A snapshot found in the folder, newest first; `problem` says why its description cannot be used. */
export interface FoundSnapshot {
  name: string;
  meta?: SnapshotMeta;
  problem?: string;
}

/** How many snapshots the folder keeps: the newest, and the one before in case the newest is being copied. */
const KEPT = 2;
/** A copy left unfinished (its writer stopped) is removed after this long. */
const ABANDONED_MS = 60 * 60 * 1000;
const COPY_SCRIPT = join(__dirname, 'snapshot-copy.worker.js');
const DESCRIPTION = /^read-models-(\d{20})-[0-9a-f]+\.json$/;

/**
 * Writes a consistent copy of the read database into the folder (snapshot-copy.worker.js, off the event loop), named
 * after its furthest checkpoint; then its description, last, so that a snapshot with a description is whole.
 */
export async function writeSnapshot(db: Database.Database, folder: string, store: string): Promise<SnapshotMeta> {
  mkdirSync(folder, { recursive: true });
  const tag = randomBytes(4).toString('hex');
  const partial = join(folder, `.read-models-${tag}.sqlite.partial`);
  try {
    await copyOnWorker(db.name, partial);
    const copy = new Database(partial, { readonly: true });
    let schema: string;
    let position: bigint;
    try {
      schema = schemaFingerprint(copy);
      const furthest = copy.prepare('SELECT MAX(position) AS position FROM checkpoints').get() as {
        position: number | null;
      };
      position = BigInt(furthest.position ?? 0);
    } finally {
      copy.close();
    }
    const base = `read-models-${String(position).padStart(20, '0')}-${tag}`;
    renameSync(partial, join(folder, `${base}.sqlite`));
    const meta: SnapshotMeta = {
      file: `${base}.sqlite`,
      schema,
      store,
      position: String(position),
      createdAt: new Date().toISOString(),
    };
    writeDurably(join(folder, `${base}.json`), `${JSON.stringify(meta, null, 2)}\n`);
    return meta;
  } finally {
    rmSync(partial, { force: true });
  }
}

function copyOnWorker(source: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COPY_SCRIPT, {
      workerData: { driver: require.resolve('better-sqlite3'), source, target },
    });
    worker.once('message', ({ failure }: { failure?: string }) => (failure ? reject(new Error(failure)) : resolve()));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The snapshot's copy stopped with code ${code}`)));
  });
}

/** The snapshots described in the folder, newest (furthest checkpoint) first; none when there is no folder. */
export function snapshotsIn(folder: string): FoundSnapshot[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => DESCRIPTION.test(name))
    .sort()
    .reverse()
    .map((name): FoundSnapshot => {
      try {
        const meta = JSON.parse(readFileSync(join(folder, name), 'utf8')) as SnapshotMeta;
        for (const field of ['file', 'schema', 'store', 'position'] as const) {
          if (typeof meta[field] !== 'string') return { name, problem: `its description has no ${field}` };
        }
        if (!/^\d+$/.test(meta.position)) return { name, problem: `its position (${meta.position}) is not a number` };
        return { name, meta };
      } catch (error) {
        return { name, problem: `its description cannot be read (${(error as Error).message})` };
      }
    });
}

/**
 * Removes all but the newest snapshots, those from before `before` (a subject's forgetting) whatever their number,
 * and copies whose writer stopped before it finished them.
 */
export function pruneSnapshots(folder: string, before?: bigint): void {
  const stale = (snapshot: FoundSnapshot, index: number) =>
    index >= KEPT || (before !== undefined && snapshot.meta !== undefined && BigInt(snapshot.meta.position) < before);
  for (const found of snapshotsIn(folder).filter(stale)) {
    rmSync(join(folder, found.name), { force: true });
    if (found.meta) rmSync(join(folder, found.meta.file), { force: true });
  }
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.partial')) continue;
    const file = join(folder, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > ABANDONED_MS) rmSync(file, { force: true });
  }
}
