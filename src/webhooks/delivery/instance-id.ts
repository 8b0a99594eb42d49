import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The name an instance claims deliveries under: one per data folder, kept in `webhook-instance.id`. A data folder
 * is locked to one process, so a restarted service takes up its own claims and retries at once, rather than
 * waiting for their leases as another instance must.
 */
export function instanceIdOf(dataDir: string): string {
  const file = join(dataDir, 'webhook-instance.id');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomUUID(), { flag: 'wx' });
    return readFileSync(file, 'utf8').trim();
  }
}
