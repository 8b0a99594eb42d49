import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { WebhookSending } from '../delivery/webhook-sending';
import { DeliveryAttempt, WebhooksReadModel } from '../queries/webhooks.read-model';
import { deliveryDecider, deliveryStream } from '../webhook-delivery';
import { RedeliverCommand } from './webhook.command';
import { traceOf } from '../../shared/trace-context';

/**
 * Sends a delivery's event again, now, whatever became of it (outside the order of the queue, which it does not
 * change), and records the attempt; the answer is that attempt.
 */
@CommandHandler(RedeliverCommand)
export class RedeliverHandler implements ICommandHandler<RedeliverCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly actors: ActorRegistry,
    private readonly webhooks: WebhooksReadModel,
    private readonly readYourWrites: ReadYourWrites,
    private readonly sending: WebhookSending,
    private readonly clock: Clock,
  ) {}

  async execute(command: RedeliverCommand): Promise<DeliveryAttempt> {
    const { webhookId, deliveryId } = command;
    const target = this.webhooks.target(webhookId);
    if (!target) throw new DomainError('not_found', `Webhook ${webhookId} does not exist`);
    const last = this.webhooks.lastAttemptOf(webhookId, deliveryId);
    if (!last) throw new DomainError('not_found', `Webhook ${webhookId} has no delivery ${deliveryId}`);
    const { events } = await this.store.readStream(last.eventStream, {
      fromRevision: BigInt(last.eventRevision),
      maxCount: 1,
    });
    const event = events[0];
    if (!event || event.id !== last.eventId)
      throw new DomainError('not_found', `The event of delivery ${deliveryId} is gone`);
    const result = await this.sending.send(target, event);
    const { deliveryId: _d, eventId, eventType, eventStream, eventRevision, position } = last;
    const delivered = { deliveryId, eventId, eventType, eventStream, eventRevision, position };
    const outcome = {
      outcome: result.ok ? ('succeeded' as const) : ('failed' as const),
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      attemptedAt: this.clock.now().toISOString(),
      nextAttemptAt: null,
    };
    const attempt = last.attempt + 1;
    const recorded = await this.actors.send(
      deliveryStream(webhookId),
      deliveryDecider,
      {
        type: 'RecordAttempts',
        webhookId,
        attempts: [{ event: delivered, attempt, result: outcome }],
        redelivery: true,
      },
      { correlationId: webhookId, causationId: eventId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(recorded.position);
    const { outcome: status, ...rest } = outcome;
    return { ...delivered, ...rest, status, attempt, redelivery: true };
  }
}
