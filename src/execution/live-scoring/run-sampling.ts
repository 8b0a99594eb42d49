import { createHash } from 'node:crypto';

/**
 * Whether a run is among the share `sampling` (0 to 1) a scorer scores: a hash of the run's id and the scorer's
 * name, read as a number from 0 to 1, is below it. The same run and scorer always give the same answer, on every
 * instance and on every reading of the log; different scorers sample runs independently of each other.
 */
export function isSampled(runId: string, scorer: string, sampling: number): boolean {
  if (sampling <= 0) return false;
  if (sampling >= 1) return true;
  const digest = createHash('sha256').update(`${runId}\n${scorer}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48 < sampling;
}
