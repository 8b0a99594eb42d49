import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import {
  WEBHOOK_EVENT_TYPES,
  WebhookCreated,
  WebhookDeleted,
  WebhookDisabled,
  WebhookSecretRotated,
  WebhookUpdated,
} from '../webhook';
import { WebhookDeliveryAttempted } from '../webhook-delivery';
import { WebhooksReadModel } from './webhooks.read-model';

/** Keeps `webhooks` and the attempts of their deliveries in step with the log. */
@Injectable()
export class WebhooksProjection extends ReadModelProjection {
  readonly name = 'webhooks';
  readonly eventTypes = [...WEBHOOK_EVENT_TYPES, 'WebhookDeliveryAttempted'];

  constructor(
    private readonly readModel: WebhooksReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'WebhookCreated': {
        const data = event.data as WebhookCreated['data'];
        return this.readModel.create(data, data.encryptedSecret, event.position);
      }
      case 'WebhookUpdated': {
        const { webhookId, changes, updatedAt } = event.data as WebhookUpdated['data'];
        return this.readModel.change(webhookId, changes, updatedAt, event.position);
      }
      case 'WebhookSecretRotated': {
        const { webhookId, encryptedSecret, rotatedAt } = event.data as WebhookSecretRotated['data'];
        return this.readModel.change(webhookId, { encryptedSecret }, rotatedAt, event.position);
      }
      case 'WebhookDisabled': {
        const { webhookId, reason, disabledAt } = event.data as WebhookDisabled['data'];
        return this.readModel.change(webhookId, { enabled: false, disabledReason: reason }, disabledAt, event.position);
      }
      case 'WebhookDeleted':
        return this.readModel.remove((event.data as WebhookDeleted['data']).webhookId);
      case 'WebhookDeliveryAttempted': {
        const {
          webhookId,
          outcome,
          instance: _by,
          ...attempt
        } = event.data as unknown as WebhookDeliveryAttempted['data'];
        return this.readModel.addAttempt(event.position, webhookId, { ...attempt, status: outcome });
      }
    }
  }
}
