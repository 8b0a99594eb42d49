import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { MEMORY_EVENT_TYPES, MemoryItemEvent } from '../memory-item';
import { MemoryReadModel } from './memory.read-model';

/** An item stream's namespace and key (`memory-<namespace>/<key>`: a key holds no `/`). */
function itemOfStream(stream: string): Array<{ namespace: string; key: string }> {
  if (!stream.startsWith('memory-')) return [];
  const address = stream.slice('memory-'.length);
  const slash = address.lastIndexOf('/');
  return [{ namespace: address.slice(0, slash), key: address.slice(slash + 1) }];
}

/**
 * Keeps the memory items, their versions and their search index in step with the log; the items of a forgotten
 * subject are dropped, every version of them.
 */
@Injectable()
export class MemoryProjection extends ReadModelProjection {
  readonly name = 'memory';
  readonly eventTypes = [...MEMORY_EVENT_TYPES, 'SubjectForgotten'];

  constructor(
    private readonly readModel: MemoryReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(recorded: RecordedEvent): void {
    if (recorded.type === 'SubjectForgotten') {
      const { namespaces, streams } = recorded.data as { namespaces: string[]; streams: string[] };
      return this.readModel.forget(namespaces, streams.flatMap(itemOfStream));
    }
    const event = recorded as unknown as MemoryItemEvent;
    if (event.type === 'MemoryItemPut') this.readModel.put(event.data, recorded.id);
    else this.readModel.removed(event.data, recorded.id);
  }
}
