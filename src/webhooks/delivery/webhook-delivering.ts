import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { persistently } from '../../actors/persistently';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/decider';
import { RecordedEvent } from '../../event-store/event-store';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { WebhooksReadModel } from '../queries/webhooks.read-model';
import { webhookDecider, webhookStream } from '../webhook';
import { CLAIMED_ELSEWHERE, RETRY_ELSEWHERE, deliveryDecider, deliveryStream } from '../webhook-delivery';
import { instanceIdOf } from './instance-id';
import { retryDelayMs } from './retry-delay';
import { deliveredEventOf, WebhookSending } from './webhook-sending';
import { SendResult } from './webhook-sender';

/** A webhook that has failed for this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** How often an instance looks whether another one has finished the attempt it holds. */
const CLAIM_POLL_MS = 100;
/** How often it looks whether another instance's retry of a failing event is overdue. */
const RETRY_POLL_MS = 1000;

/**
 * Sends a webhook its next events, in log order, one at a time: each batch is claimed on the webhook's deliveries
 * stream under a lease (see webhook-delivery.ts), sent, and recorded in one commit, so any number of instances send
 * each event once per webhook. A failure is retried with exponential back-off and jitter (the events after it wait,
 * which keeps the order) until it has failed for 24 h, when the webhook is disabled.
 */
@Injectable()
export class WebhookDelivering {
  private readonly logger = new Logger(WebhookDelivering.name);
  /** This instance, in claims (the same after a restart): its own claims and retries it takes up at once. */
  private readonly instance: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly webhooks: WebhooksReadModel,
    private readonly sending: WebhookSending,
    private readonly clock: Clock,
  ) {
    this.instance = instanceIdOf(config.dataDir);
  }

  /**
   * Sends the first of `batch` until it is delivered (and as many after it as go through in the claim's time), or
   * the webhook is disabled or gone: how many of the batch are done with. 0 only when `signal` stops it.
   */
  async deliverSome(webhookId: string, batch: RecordedEvent[], signal: AbortSignal): Promise<number> {
    const actor = this.actors.of(deliveryStream(webhookId), deliveryDecider);
    const first = batch[0];
    const context = { correlationId: webhookId, causationId: first.id };
    for (;;) {
      const target = this.webhooks.target(webhookId);
      if (signal.aborted) return 0;
      if (!target?.enabled) return batch.length;
      const timeoutMs = this.sending.timeoutMs;
      const leaseUntil = this.clock.now().getTime() + 2 * timeoutMs;
      let claimed;
      try {
        const through = batch[batch.length - 1].position.toString();
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
        await sleep(elsewhere === RETRY_ELSEWHERE ? RETRY_POLL_MS : CLAIM_POLL_MS, signal);
        continue;
      }
      const claim = claimed.events[0];
      // Delivered already (by another instance, or before a restart): skip what was.
      if (!claim) return batch.filter((event) => event.position <= claimed.state.deliveredThrough).length || 1;

      const sent: Array<{ event: RecordedEvent; attempt: number; result: SendResult; at: Date }> = [];
      for (const [i, event] of batch.entries()) {
        // Each send starts with a whole timeout left on the claim.
        if (i > 0 && this.clock.now().getTime() > leaseUntil - timeoutMs) break;
        const result = await this.sending.send(target, event, signal);
        // Cut off by a stop: unrecorded, sent again by the next start. One answered in time is recorded first.
        if (signal.aborted && !result.ok) return 0;
        sent.push({
          event,
          attempt: i === 0 ? (claim.data as { attempt: number }).attempt : 1,
          result,
          at: this.clock.now(),
        });
        if (!result.ok || signal.aborted) break;
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
        () => signal.aborted,
      );
      const delivered = sent.length - (failed ? 1 : 0);
      if (!failed) return delivered;
      if (giveUp) {
        await this.disable(webhookId, failingSince!, recorded.position, signal);
        return batch.length;
      }
      await sleep(delay, signal);
      if (delivered > 0) return delivered;
    }
  }

  private async disable(
    webhookId: string,
    failingSince: string,
    after: bigint | undefined,
    signal: AbortSignal,
  ): Promise<void> {
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
      () => signal.aborted,
    ).catch((error: unknown) => {
      if (error instanceof DomainError) return undefined; // deleted meanwhile
      throw error;
    });
    this.logger.warn(`Webhook ${webhookId} disabled: ${reason}`);
    await this.readYourWrites.waitFor(disabled?.position ?? after ?? 0n);
  }
}

/** Waits `ms`, or less if `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
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
