import { Command } from '@nestjs/cqrs';
import { ThreadView } from '../queries/threads.read-model';

export class CreateThreadCommand extends Command<ThreadView> {
  constructor(
    readonly agentId: string,
    readonly metadata: Record<string, unknown>,
    readonly subjectId?: string,
  ) {
    super();
  }
}
