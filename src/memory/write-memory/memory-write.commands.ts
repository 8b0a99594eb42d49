import { Command } from '@nestjs/cqrs';
import { MemoryView } from '../queries/memory.read-model';

export class PutMemoryCommand extends Command<MemoryView> {
  constructor(
    readonly namespace: string,
    readonly key: string,
    readonly value: unknown,
    readonly ttlSeconds?: number,
  ) {
    super();
  }
}

export class DeleteMemoryCommand extends Command<void> {
  constructor(
    readonly namespace: string,
    readonly key: string,
  ) {
    super();
  }
}
