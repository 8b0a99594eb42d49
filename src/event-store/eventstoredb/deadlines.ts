import { StreamingRead } from '@eventstore/db-client';
import { StoreUnavailableError } from '../event-store';

/** Reads are streamed without a client deadline, so a read that outlives ours is torn down. */
export async function collectWithin<T>(read: StreamingRead<T>, what: string, deadlineMs: number): Promise<T[]> {
  const timer = setTimeout(() => {
    read.cancel().catch(() => undefined);
    read.destroy(new StoreUnavailableError(`EventStoreDB ${what} took longer than ${deadlineMs} ms`));
  }, deadlineMs);
  try {
    const items: T[] = [];
    for await (const item of read) items.push(item);
    return items;
  } finally {
    clearTimeout(timer);
  }
}

/** Batch appends and the server-features lookup carry no client deadline; this bounds them all. */
export function within<T>(call: Promise<T>, what: string, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`EventStoreDB ${what} took longer than ${deadlineMs} ms`)),
      deadlineMs,
    );
  });
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
