import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RecordedEvent } from '../../event-store/event-store';
import { toEnvelope } from '../../events/event-envelope';
import { Clock } from '../../shared/clock';
import { WebhookTarget } from '../queries/webhooks.read-model';
import { DeliveredEvent } from '../webhook-delivery';
import { SecretBox } from '../webhook-secrets';
import { WebhookUrlPolicy } from '../webhook-url';
import { SendResult, sendDelivery } from './webhook-sender';

/** The `webhook-id` of an event's deliveries: `msg_` and the event's id, the same for every webhook and attempt. */
export function deliveryIdOf(eventId: string): string {
  return `msg_${eventId.replace(/-/g, '')}`;
}

export function deliveredEventOf(event: RecordedEvent): DeliveredEvent {
  return {
    deliveryId: deliveryIdOf(event.id),
    eventId: event.id,
    eventType: event.type,
    eventStream: event.stream,
    eventRevision: event.revision.toString(),
    position: event.position.toString(),
  };
}

/** Sends an event to a webhook, signed with its secret: what the dispatcher and a redelivery share. */
@Injectable()
export class WebhookSending implements OnApplicationShutdown {
  readonly policy: WebhookUrlPolicy;
  private box?: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.policy = new WebhookUrlPolicy(config.webhooks.allowedHosts);
  }

  /** Opened at first use: the key file, when there is one, is made only by a service that has webhooks. */
  get secrets(): SecretBox {
    this.box ??= SecretBox.open(this.config.webhooks.secretKey, this.config.dataDir);
    return this.box;
  }

  get retryBaseMs(): number {
    return this.config.webhooks.retryBaseMs;
  }

  get timeoutMs(): number {
    return this.config.webhooks.timeoutMs;
  }

  async send(target: WebhookTarget, event: RecordedEvent, signal?: AbortSignal): Promise<SendResult> {
    let secret: string;
    try {
      secret = this.secrets.open(target.encryptedSecret, target.id);
    } catch {
      const error = 'The signing secret cannot be decrypted: is WEBHOOK_SECRET_KEY the one it was made with?';
      return { ok: false, statusCode: null, durationMs: 0, error };
    }
    const request = {
      url: target.url,
      secret,
      deliveryId: deliveryIdOf(event.id),
      timestamp: this.clock.now(),
      body: JSON.stringify(toEnvelope(event)),
    };
    return sendDelivery(this.policy, request, this.timeoutMs, signal);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.policy.close();
  }
}
