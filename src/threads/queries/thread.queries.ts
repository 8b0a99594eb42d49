import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { Page, decodeCursor } from '../../read-models/page';
import { isId } from '../../shared/ids';
import { ValidationFailed } from '../../shared/validation-failed';
import { ThreadMessage } from '../thread';
import { ThreadView, ThreadsReadModel } from './threads.read-model';

export class ListThreadsQuery extends Query<Page<ThreadView>> {
  constructor(
    readonly agentId: string | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class GetThreadQuery extends Query<ThreadView> {
  constructor(readonly threadId: string) {
    super();
  }
}

export class ListThreadMessagesQuery extends Query<{ messages: ThreadMessage[]; nextCursor: string | null }> {
  constructor(
    readonly threadId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListThreadsQuery)
export class ListThreadsHandler implements IQueryHandler<ListThreadsQuery> {
  constructor(private readonly readModel: ThreadsReadModel) {}

  async execute({ agentId, limit, cursor }: ListThreadsQuery) {
    return this.readModel.list(
      agentId,
      decodeCursor(cursor, (id) => isId('thread', id)),
      limit,
    );
  }
}

@QueryHandler(GetThreadQuery)
export class GetThreadHandler implements IQueryHandler<GetThreadQuery> {
  constructor(private readonly readModel: ThreadsReadModel) {}

  async execute({ threadId }: GetThreadQuery) {
    const thread = this.readModel.get(threadId);
    if (!thread) throw new DomainError('not_found', `Thread ${threadId} does not exist`);
    return thread;
  }
}

/** A message cursor is the base64url of the last message's number in the thread. */
@QueryHandler(ListThreadMessagesQuery)
export class ListThreadMessagesHandler implements IQueryHandler<ListThreadMessagesQuery> {
  constructor(private readonly readModel: ThreadsReadModel) {}

  async execute({ threadId, limit, cursor }: ListThreadMessagesQuery) {
    const after = cursor === undefined ? -1 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (cursor !== undefined && !(Number.isSafeInteger(after) && after >= 0 && /^[A-Za-z0-9_-]+$/.test(cursor))) {
      throw new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
    }
    if (!this.readModel.get(threadId)) throw new DomainError('not_found', `Thread ${threadId} does not exist`);
    const { messages, next } = this.readModel.messages(threadId, after, limit);
    return { messages, nextCursor: next === null ? null : Buffer.from(String(next)).toString('base64url') };
  }
}
