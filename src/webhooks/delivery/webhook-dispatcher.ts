import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { persistently } from '../../actors/persistently';
import { CHECKPOINT_STORE, CheckpointStore } from '../../consumers/checkpoint-store';
import { CheckpointedConsumer } from '../../consumers/checkpointed-consumer';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { isDeliverable, matchesAny } from '../event-patterns';
import { WebhooksReadModel } from '../queries/webhooks.read-model';
import { webhookDecider, webhookStream } from '../webhook';
import { CLAIMED_ELSEWHERE, RETRY_ELSEWHERE, deliveryDecider, deliveryStream } from '../webhook-delivery';
import { retryDelayMs } from './retry-delay';
import { deliveredEventOf, WebhookSending } from './webhook-sending';
import { SendResult } from './webhook-sender';

/** A webhook that has failed for this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** How often an instance looks whether another one has finished the attempt it holds. */
const CLAIM_POLL_MS = 100;
/** How often it looks whether another instance's retry of a failing event is overdue. */
const RETRY_POLL_MS = 1000;
/** Events waiting in the queues before the dispatcher stops reading the log for a while. */
const MAX_PENDING = 10_000;
/** Events of one webhook sent under one claim, one after another, and recorded in one commit. */
const MAX_BATCH = 100;

interface Queued {
  event: RecordedEvent;
  done: () => void;
}

/**
 * Webhook deliveries: a consumer of the log with its own checkpoint. Each webhook has a queue of the events it is
 * to be sent, in log order, one at a time (up to MAX_BATCH under one claim, recorded in one commit); a failure is retried with exponential back-off and jitter (and blocks
 * the events after it, which keeps the order) until it has failed for 24 h, when the webhook is disabled. An event
 * is held (the checkpoint stays below it) until every webhook it goes to is done with it, so nothing is lost in a
 * restart. Attempts are claimed and recorded on the webhook's deliveries stream (see webhook-delivery.ts), so any
 * number of instances send each event once per webhook.
 */
@Injectable()
export class WebhookDispatcher
  extends CheckpointedConsumer
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected readonly name = 'webhook-deliveries';
  private readonly instance = randomUUID();
  private readonly queues = new Map<string, { items: Queued[]; running: Promise<void> }>();
  private readonly stopping = new AbortController();
  private pending = 0;
  private drained?: () => void;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(CHECKPOINT_STORE) checkpoints: CheckpointStore,
    private readonly actors: ActorRegistry,
    private readonly projections: ProjectionRunner,
    private readonly readYourWrites: ReadYourWrites,
    private readonly webhooks: WebhooksReadModel,
    private readonly sending: WebhookSending,
    private readonly clock: Clock,
  ) {
    super(store, checkpoints);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.whenCaughtUp();
    void this.follow();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.drained?.();
    await this.stopFollowing();
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.running));
  }

  protected async handle(events: RecordedEvent[]): Promise<void> {
    // The read models then know every webhook created up to this batch.
    await this.readYourWrites.waitFor(events[events.length - 1].position);
    const targets = this.webhooks.enabledTargets();
    if (targets.length === 0) return;
    for (const event of events) {
      if (!isDeliverable(event.type)) continue;
      const to = targets.filter((t) => event.position > t.createdPosition && matchesAny(t.events, event.type));
      if (to.length === 0) continue;
      const release = this.hold(event);
      let left = to.length;
      const done = () => {
        if (--left === 0) release();
      };
      for (const target of to) this.enqueue(target.id, { event, done });
    }
    while (this.pending > MAX_PENDING && !this.stopping.signal.aborted) {
      await new Promise<void>((resolve) => (this.drained = resolve));
    }
  }

  private enqueue(webhookId: string, item: Queued): void {
    this.pending++;
    const queue = this.queues.get(webhookId);
    if (queue) {
      queue.items.push(item);
      return;
    }
    const created = { items: [item], running: Promise.resolve() };
    this.queues.set(webhookId, created);
    created.running = this.work(webhookId, created.items);
  }

  private async work(webhookId: string, items: Queued[]): Promise<void> {
    while (items.length > 0) {
      let finished = 0;
      try {
        finished = await this.deliverSome(webhookId, items.slice(0, MAX_BATCH));
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        this.logger.error(`Delivering to webhook ${webhookId} failed, trying again: ${String(error)}`);
        await this.sleep(1000);
      }
      if (this.stopping.signal.aborted) return;
      for (const { done } of items.splice(0, finished)) {
        done();
        if (--this.pending <= MAX_PENDING) this.drained?.();
      }
    }
    this.queues.delete(webhookId);
  }

  /**
   * Sends the first of `batch` until it is delivered (and as many after it as go through in the claim's time), or
   * the webhook is disabled or gone: how many of the batch are done with. 0 only when the instance stops.
   */
  private async deliverSome(webhookId: string, batch: Queued[]): Promise<number> {
    const actor = this.actors.of(deliveryStream(webhookId), deliveryDecider);
    const first = batch[0].event;
    const context = { correlationId: webhookId, causationId: first.id };
    for (;;) {
      const target = this.webhooks.target(webhookId);
      if (this.stopping.signal.aborted) return 0;
      if (!target?.enabled) return batch.length;
      const timeoutMs = this.sending.timeoutMs;
      const leaseUntil = this.clock.now().getTime() + 2 * timeoutMs;
      let claimed;
      try {
        const through = batch[batch.length - 1].event.position.toString();
        const claim = { webhookId, event: deliveredEventOf(first), through, instance: this.instance };
        claimed = await actor.send(
          { type: 'ClaimDelivery', ...claim, leaseUntil: new Date(leaseUntil).toISOString() },
          context,
        );
      } catch (error) {
        const elsewhere = error instanceof DomainError ? error.problemType : undefined;
        if (elsewhere !== CLAIMED_ELSEWHERE && elsewhere !== RETRY_ELSEWHERE) {
          this.logger.warn(`Claiming a delivery to webhook ${webhookId} failed: ${String(error)}`);
        }
        await this.sleep(elsewhere === RETRY_ELSEWHERE ? RETRY_POLL_MS : CLAIM_POLL_MS);
        continue;
      }
      const claim = claimed.events[0];
      // Delivered already (by another instance, or before a restart): skip what was.
      if (!claim) return batch.filter(({ event }) => event.position <= claimed.state.deliveredThrough).length || 1;

      const sent: Array<{ event: RecordedEvent; attempt: number; result: SendResult; at: Date }> = [];
      for (const [i, { event }] of batch.entries()) {
        // Each send starts with a whole timeout left on the claim.
        if (i > 0 && this.clock.now().getTime() > leaseUntil - timeoutMs) break;
        const result = await this.sending.send(target, event, this.stopping.signal);
        if (this.stopping.signal.aborted) return 0; // unrecorded: the claim runs out, the next start sends again
        sent.push({
          event,
          attempt: i === 0 ? (claim.data as { attempt: number }).attempt : 1,
          result,
          at: this.clock.now(),
        });
        if (!result.ok) break;
      }
      const failed = sent.at(-1)!.result.ok ? undefined : sent.at(-1)!;
      const failing = claimed.state.failing;
      const failingSince =
        failed && (failing?.position === failed.event.position ? failing.since : failed.at.toISOString());
      const giveUp = failed !== undefined && failed.at.getTime() - Date.parse(failingSince!) >= GIVE_UP_AFTER_MS;
      const delay = failed ? retryDelayMs(failed.attempt, this.sending.retryBaseMs) : 0;
      const attempts = sent.map(({ event, attempt, result, at }) => ({
        event: deliveredEventOf(event),
        attempt,
        result: {
          outcome: result.ok ? ('succeeded' as const) : ('failed' as const),
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          error: result.error,
          attemptedAt: at.toISOString(),
          nextAttemptAt: result.ok || giveUp ? null : new Date(at.getTime() + delay).toISOString(),
        },
      }));
      const recorded = await persistently(
        () =>
          actor.send(
            { type: 'RecordAttempts', webhookId, instance: this.instance, attempts, redelivery: false },
            context,
          ),
        `Recording deliveries to webhook ${webhookId}`,
        this.logger,
        () => this.stopping.signal.aborted,
      );
      const delivered = sent.length - (failed ? 1 : 0);
      if (!failed) return delivered;
      if (giveUp) {
        await this.disable(webhookId, failingSince!, recorded.position);
        return batch.length;
      }
      await this.sleep(delay);
      if (delivered > 0) return delivered;
    }
  }

  private async disable(webhookId: string, failingSince: string, after: bigint | undefined): Promise<void> {
    const reason = `Deliveries failed for 24 hours (since ${failingSince})`;
    const disabled = await persistently(
      () =>
        this.actors.send(
          webhookStream(webhookId),
          webhookDecider,
          { type: 'DisableFailingWebhook', webhookId, reason, failingSince },
          { correlationId: webhookId, causationId: webhookId },
        ),
      `Disabling webhook ${webhookId}`,
      this.logger,
      () => this.stopping.signal.aborted,
    ).catch((error: unknown) => {
      if (error instanceof DomainError) return undefined; // deleted meanwhile
      throw error;
    });
    this.logger.warn(`Webhook ${webhookId} disabled: ${reason}`);
    await this.readYourWrites.waitFor(disabled?.position ?? after ?? 0n);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.stopping.signal;
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }
}
