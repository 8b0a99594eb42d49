import { APICallError } from 'ai';
import { ModelRunError } from './model-run-error';

/** Maps what a model call failed with to a `ModelRunError`; a fired signal wins over anything else. */
export function toModelRunError(error: unknown, provider: string, signal: AbortSignal): ModelRunError {
  if (error instanceof ModelRunError) return error;
  if (signal.aborted) {
    return new ModelRunError('aborted', `the model call was aborted: ${errorMessage(signal.reason)}`, {
      reason: signal.reason,
      cause: error,
    });
  }
  if (error === undefined) return new ModelRunError('provider_error', `${provider}'s answer ended before it finished`);
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) {
      return new ModelRunError('provider_unreachable', `${provider} is unreachable: ${error.message}`, {
        cause: error,
      });
    }
    return new ModelRunError('provider_error', `${provider} answered ${error.statusCode}: ${error.message}`, {
      status: error.statusCode,
      cause: error,
    });
  }
  if (isFetchFailure(error)) {
    const detail = errorMessage(error.cause ?? error);
    return new ModelRunError('provider_unreachable', `${provider} is unreachable: ${detail}`, { cause: error });
  }
  return new ModelRunError('provider_error', `${provider} failed: ${errorMessage(error)}`, { cause: error });
}

/** undici's `TypeError: fetch failed` (checked by shape: it may come from another realm, e.g. under jest). */
function isFetchFailure(error: unknown): error is { cause?: unknown } {
  return hasMessage(error) && (error as Error).name === 'TypeError' && /fetch failed/i.test(error.message);
}

function hasMessage(error: unknown): error is { message: string } {
  return typeof error === 'object' && error !== null && typeof (error as Error).message === 'string';
}

export function errorMessage(error: unknown): string {
  if (hasMessage(error)) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
