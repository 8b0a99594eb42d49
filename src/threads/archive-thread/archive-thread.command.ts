import { Command } from '@nestjs/cqrs';
import { ThreadView } from '../queries/threads.read-model';

export class ArchiveThreadCommand extends Command<ThreadView> {
  constructor(readonly threadId: string) {
    super();
  }
}
