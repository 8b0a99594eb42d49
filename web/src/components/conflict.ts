import type { ProblemError } from '../api/client';

/** A 412 to an edit sent with If-Match: someone changed the resource after this page read it. */
export function isEditConflict(error: ProblemError | null): boolean {
  return error?.problem.status === 412;
}

export const CONFLICT_MESSAGE =
  'Someone else changed this since you opened it, so your change was not saved. Reload to see their version, then edit again.';
