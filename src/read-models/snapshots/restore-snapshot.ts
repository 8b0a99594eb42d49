import { copyFile, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Logger } from '@nestjs/common';
import { EventStore } from '../../event-store/event-store';
import { syncFile, syncFolder } from '../../shared/durable-files';
import { READ_MODEL_SCHEMA } from './read-model-schema';
import { SnapshotMeta, snapshotsIn } from './snapshot-folder';

const logger = new Logger('ReadModelSnapshots');

/** The store's identity: the id of the first event of its log (none while the log is empty). */
export async function storeIdentity(store: EventStore): Promise<string | undefined> {
  const [first] = await store.readAll({ maxCount: 1 });
  return first?.id;
}

/**
 * When the instance has no read database yet, puts the newest snapshot in the folder that fits in its place: one of
 * this schema, built from this store, and not further than the log reaches (a store restored from an older backup).
 * The read models then catch up from its checkpoints. A snapshot that does not fit is passed over, with a log line
 * saying why; with none that fits, the read models are built from the log as before. Returns what was restored.
 */
export async function restoreSnapshot(folder: string, file: string, store: EventStore): Promise<string | undefined> {
  if (existsSync(file)) return undefined;
  const found = snapshotsIn(folder);
  if (!found.length) {
    logger.log(`No read-model snapshot in ${folder}: the read models are built from the log`);
    return undefined;
  }
  const [identity, head] = await Promise.all([storeIdentity(store), store.head()]);
  for (const { name, meta, problem } of found) {
    const unfit = meta ? whyUnfit(meta, identity, head) : problem;
    if (!meta || unfit) {
      logger.warn(`Read-model snapshot ${name} passed over: ${unfit}`);
      continue;
    }
    const restoring = `${file}.restoring`;
    try {
      await copyFile(join(folder, meta.file), restoring);
      syncFile(restoring);
      await rename(restoring, file);
      syncFolder(dirname(file));
    } catch (error) {
      await rm(restoring, { force: true });
      logger.warn(`Read-model snapshot ${name} passed over: it cannot be copied (${(error as Error).message})`);
      continue;
    }
    logger.log(
      `Read models restored from snapshot ${meta.file} (position ${meta.position} of ${head}); catching up from there`,
    );
    return meta.file;
  }
  logger.log('No read-model snapshot fits: the read models are built from the log');
  return undefined;
}

function whyUnfit(meta: SnapshotMeta, identity: string | undefined, head: bigint): string | undefined {
  if (meta.schema !== READ_MODEL_SCHEMA) {
    return `its schema (${meta.schema}) is not this version's (${READ_MODEL_SCHEMA})`;
  }
  if (identity === undefined) return 'the log is empty';
  if (meta.store !== identity) return `it was built from another store (first event ${meta.store}, not ${identity})`;
  if (BigInt(meta.position) > head) {
    return `it is further (position ${meta.position}) than the log reaches (${head}): was the store restored from an older backup?`;
  }
  return undefined;
}
