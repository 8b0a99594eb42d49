import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The name an instance claims deliveries under: one per data folder (kept in `webhook-instance.id`) and host. A data
 * folder is locked to one process, so a restarted service takes up its own claims and retries at once, rather than
 * waiting for their leases as another instance must. The host name keeps apart two instances started from copies of
 * one folder (a cloned volume, a restored backup) on different hosts.
 */
export function instanceIdOf(dataDir: string): string {
  const file = join(dataDir, 'webhook-instance.id');
  return `${folderIdOf(file, dataDir)}@${hostname()}`;
}

function folderIdOf(file: string, dataDir: string): string {
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (UUID.test(id)) return id;
  } catch {
    // None yet.
  }
  // Written whole or not at all: a crash never leaves an empty name behind.
  const id = randomUUID();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, id);
  renameSync(`${file}.${process.pid}.tmp`, file);
  return id;
}
