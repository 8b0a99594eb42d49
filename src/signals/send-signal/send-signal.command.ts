import { Command } from '@nestjs/cqrs';
import type { Signal } from '../signal';
import type { SignalDelivery } from '../queries/signals.read-model';

/** A signal as the API shows it: with the waiting steps it reached. */
export type SignalView = Signal & { delivered: Array<Pick<SignalDelivery, 'workflowRunId' | 'step'>> };

export class SendSignalCommand extends Command<SignalView> {
  constructor(
    readonly name: string,
    readonly key: string | null,
    readonly data: unknown,
  ) {
    super();
  }
}
