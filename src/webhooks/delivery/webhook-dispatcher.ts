import { Injectable } from '@nestjs/common';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { AppliedEvents } from '../../read-models/applied-events';
import { WebhooksReadModel } from '../queries/webhooks.read-model';
import { WebhookCreated, WebhookDeleted, WebhookDisabled, WebhookUpdated } from '../webhook';
import { WebhookConsumer, WebhookConsumerDeps, checkpointName } from './webhook-consumer';
import { WebhookDelivering } from './webhook-delivering';

/** The checkpoint of the one consumer that served every webhook before there was one per webhook. */
const FORMER_CHECKPOINT = 'webhook-deliveries';

/**
 * Webhook deliveries: a checkpointed consumer of the log per enabled webhook (webhook-consumer.ts), started and
 * stopped as webhooks are created, enabled, disabled and deleted, and told of new events as the read models apply
 * them. A webhook is sent the events after its creation, or after its last re-enabling: events written while it
 * was disabled are not sent.
 */
@Injectable()
export class WebhookDispatcher extends ProcessManager {
  protected readonly name = 'webhook-dispatcher';
  private readonly consumers = new Map<string, WebhookConsumer>();
  /** Starts and stops, one after another. */
  private changes = Promise.resolve();
  /** The position of the last event the read models applied, as told to this dispatcher. */
  private applied?: bigint;
  private readonly deps: WebhookConsumerDeps;

  constructor(
    deps: ProcessManagerDeps,
    appliedEvents: AppliedEvents,
    private readonly webhooks: WebhooksReadModel,
    delivering: WebhookDelivering,
  ) {
    super(deps);
    this.deps = {
      store: deps.store,
      checkpoints: deps.checkpoints,
      target: (id) => webhooks.target(id),
      deliver: (id, batch, signal) => delivering.deliverSome(id, batch, signal),
    };
    appliedEvents.onApplied((events) => this.onApplied(events));
  }

  protected override begin(): void {
    for (const target of this.webhooks.enabledTargets()) this.restart(target.id);
  }

  protected override async finishWork(): Promise<void> {
    await Promise.all([...this.consumers.values()].map((consumer) => consumer.stop()));
    await this.changes;
  }

  private onApplied(events: RecordedEvent[]): void {
    // Once caught up, the read models apply every event: a batch is then all of the log after the one before.
    const from = this.readSide.caughtUp ? this.applied : undefined;
    this.applied = events[events.length - 1].position;
    if (!this.started) return;
    for (const event of events) {
      const webhookId = startsOrStops(event);
      // A webhook just created may have been started already, by the start-up.
      if (webhookId) this.restart(webhookId, event.type === 'WebhookCreated');
    }
    for (const consumer of this.consumers.values()) consumer.offer(events, from);
  }

  /** Stops the webhook's consumer, if it has one (unless `keep`), and starts one if the webhook is enabled. */
  private restart(webhookId: string, keep = false): void {
    this.changes = this.changes.then(async () => {
      if (keep && this.consumers.has(webhookId)) return;
      await this.consumers.get(webhookId)?.stop();
      this.consumers.delete(webhookId);
      const target = this.webhooks.target(webhookId);
      if (this.stopping || !target?.enabled) return;
      const start = [target.startPosition, this.checkpoints.load(checkpointName(webhookId)), this.formerCheckpoint()];
      const from = start.reduce((a, b) => (a > b ? a : b));
      this.consumers.set(webhookId, new WebhookConsumer(webhookId, from, this.deps));
    });
  }

  /** Every event up to it was done with for every webhook there was when the former consumer last ran. */
  private formerCheckpoint(): bigint {
    return this.checkpoints.load(FORMER_CHECKPOINT);
  }
}

/**
 * The webhook the event creates, enables, disables, deletes, or gives other events, if it does (a consumer started
 * again reads on from its checkpoint with the webhook's patterns as they are now).
 */
function startsOrStops(event: RecordedEvent): string | undefined {
  switch (event.type) {
    case 'WebhookCreated':
      return (event.data as WebhookCreated['data']).id;
    case 'WebhookDisabled':
    case 'WebhookDeleted':
      return (event.data as WebhookDisabled['data'] | WebhookDeleted['data']).webhookId;
    case 'WebhookUpdated': {
      const { webhookId, changes } = event.data as WebhookUpdated['data'];
      return changes.enabled === undefined && changes.events === undefined ? undefined : webhookId;
    }
    default:
      return undefined;
  }
}
