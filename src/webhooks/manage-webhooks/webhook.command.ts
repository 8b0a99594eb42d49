import { Command } from '@nestjs/cqrs';
import { DeliveryAttempt } from '../queries/webhooks.read-model';
import { Webhook, WebhookChanges } from '../webhook';

export class CreateWebhookCommand extends Command<Webhook & { secret: string }> {
  constructor(
    readonly url: string,
    readonly events: string[],
    readonly description: string | null,
  ) {
    super();
  }
}

export class UpdateWebhookCommand extends Command<Webhook> {
  constructor(
    readonly webhookId: string,
    readonly changes: WebhookChanges,
  ) {
    super();
  }
}

export class RotateWebhookSecretCommand extends Command<Webhook & { secret: string }> {
  constructor(readonly webhookId: string) {
    super();
  }
}

export class DeleteWebhookCommand extends Command<void> {
  constructor(readonly webhookId: string) {
    super();
  }
}

export class RedeliverCommand extends Command<DeliveryAttempt> {
  constructor(
    readonly webhookId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}
