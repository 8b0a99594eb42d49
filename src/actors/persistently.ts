import { Logger } from '@nestjs/common';
import { DomainError } from '../domain/decider';

const MAX_DELAY_MS = 5_000;

/**
 * Runs `work` until it succeeds or `stopped()` says to give up, waiting longer after each failure: a process
 * manager must not drop an event because the store was away for a moment. A refusal of the domain is final and
 * is thrown at once.
 */
export async function persistently<T>(
  work: () => Promise<T>,
  what: string,
  logger: Logger,
  stopped: () => boolean,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError || stopped()) throw error;
      if (attempt === 0) logger.warn(`${what} failed, retrying until it succeeds: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, MAX_DELAY_MS)));
    }
  }
}
