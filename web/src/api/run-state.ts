/** The statuses a run (agent or workflow) never leaves. */
export const ENDED = ['succeeded', 'failed', 'cancelled'];

export const hasEnded = (status: string) => ENDED.includes(status);

/**
 * The newer of two views of a run. A snapshot (a GET, or a command's answer) can arrive after the stream or a
 * later poll has shown the run ended; an ended run never goes back to an earlier state.
 */
export function newerRun<T extends { status: string }>(old: T | null, next: T): T {
  return old && hasEnded(old.status) && !hasEnded(next.status) ? old : next;
}

/** The same rule for a status alone. */
export const newerStatus = (old: string, next: string) => (hasEnded(old) && !hasEnded(next) ? old : next);
