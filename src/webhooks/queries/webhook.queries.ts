import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { Page, decodeCursor } from '../../read-models/page';
import { isId } from '../../shared/ids';
import { Webhook } from '../webhook';
import { DeliveryAttempt, WebhooksReadModel } from './webhooks.read-model';

export class ListWebhooksQuery extends Query<Page<Webhook>> {
  constructor(
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class GetWebhookQuery extends Query<Webhook> {
  constructor(readonly webhookId: string) {
    super();
  }
}

export class ListDeliveryAttemptsQuery extends Query<Page<DeliveryAttempt>> {
  constructor(
    readonly webhookId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(private readonly readModel: WebhooksReadModel) {}

  async execute({ limit, cursor }: ListWebhooksQuery) {
    return this.readModel.list(
      decodeCursor(cursor, (id) => isId('whk', id)),
      limit,
    );
  }
}

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(private readonly readModel: WebhooksReadModel) {}

  async execute({ webhookId }: GetWebhookQuery) {
    const webhook = this.readModel.get(webhookId);
    if (!webhook) throw new DomainError('not_found', `Webhook ${webhookId} does not exist`);
    return webhook;
  }
}

/** Attempts newest first; the cursor is the base64url of the last attempt's log position. */
@QueryHandler(ListDeliveryAttemptsQuery)
export class ListDeliveryAttemptsHandler implements IQueryHandler<ListDeliveryAttemptsQuery> {
  constructor(private readonly readModel: WebhooksReadModel) {}

  async execute({ webhookId, limit, cursor }: ListDeliveryAttemptsQuery) {
    if (!this.readModel.get(webhookId)) throw new DomainError('not_found', `Webhook ${webhookId} does not exist`);
    const before = decodeCursor(cursor, (value) => /^[0-9]{1,20}$/.test(value));
    return this.readModel.attempts(webhookId, before === '' ? 2n ** 63n - 1n : BigInt(before), limit);
  }
}
