import { OnModuleInit } from '@nestjs/common';
import { RecordedEvent } from '../event-store/event-store';
import { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';

/** A read model that writes each row a batch changes once, at the batch's end (see BatchRows). */
export interface BatchedReadModel {
  batch(work: () => void): void;
}

/**
 * A projection onto one read model: it registers with the runner as the modules start, and applies each batch
 * inside its read model's `batch`. A subclass names itself and its event types, and says what an event changes.
 */
export abstract class ReadModelProjection implements Projection, OnModuleInit {
  abstract readonly name: string;
  abstract readonly eventTypes: readonly string[];

  constructor(
    private readonly batched: BatchedReadModel,
    private readonly runner: ProjectionRunner,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
  }

  applyBatch(events: RecordedEvent[]): void {
    this.batched.batch(() => {
      for (const event of events) this.apply(event);
    });
  }

  abstract apply(event: RecordedEvent): void;
}
