/** What agent runs and workflow runs have in common. */

/** `waiting`: for a person's decision (an approval); it holds no slot and nothing in memory meanwhile. */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

export const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'];

export function isEnded(status: RunStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

/** Why a run failed: a stable `code` (e.g. `provider_error`, `timeout`, `interrupted`), and for provider errors the provider's HTTP status. */
export interface RunError {
  code: string;
  message: string;
  status?: number;
  /** Where and why, for errors about a value (`output_invalid`: the answer against its schema). */
  errors?: Array<{ path: string; message: string }>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}
