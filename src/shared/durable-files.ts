import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Syncs a file's content to disk. */
export function syncFile(file: string): void {
  synced(file, 'r+');
}

/** Syncs a folder, so that the names made, renamed or removed in it outlive a power cut. */
export function syncFolder(folder: string): void {
  synced(folder, 'r');
}

function synced(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a file whole or not at all: a temporary file, synced, then renamed into place, and its folder synced. */
export function writeDurably(file: string, content: string | Buffer = ''): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, content);
  syncFile(partial);
  renameSync(partial, file);
  syncFolder(dirname(file));
}
