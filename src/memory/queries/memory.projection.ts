import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { MEMORY_EVENT_TYPES, MemoryItemEvent } from '../memory-item';
import { MemoryReadModel } from './memory.read-model';

/** Keeps the memory items, their versions and their search index in step with the log. */
@Injectable()
export class MemoryProjection extends ReadModelProjection {
  readonly name = 'memory';
  readonly eventTypes = [...MEMORY_EVENT_TYPES];

  constructor(
    private readonly readModel: MemoryReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as MemoryItemEvent;
    if (event.type === 'MemoryItemPut') this.readModel.put(event.data, recorded.id);
    else this.readModel.removed(event.data, recorded.id);
  }
}
