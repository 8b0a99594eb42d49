import type { ModelAttempt } from '../domain/run';

export type ModelRunErrorCode =
  'provider_not_configured' | 'provider_error' | 'provider_unreachable' | 'aborted' | 'output_invalid';

/** Why a model run failed; `status` is the provider's HTTP status, `reason` the AbortSignal's reason. */
export class ModelRunError extends Error {
  override readonly name = 'ModelRunError';
  /** HTTP requests sent to the provider before the run failed, retries included. */
  attempts = 0;
  /** The models the run called before it failed (its model, then any of its fallbacks), with why each was left. */
  modelAttempts: ModelAttempt[] = [];

  constructor(
    readonly code: ModelRunErrorCode,
    message: string,
    readonly details: { status?: number; reason?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
  }

  get status(): number | undefined {
    return this.details.status;
  }

  /** For `aborted`: the signal's reason, so the caller can tell a cancel from a time limit. */
  get reason(): unknown {
    return this.details.reason;
  }
}
