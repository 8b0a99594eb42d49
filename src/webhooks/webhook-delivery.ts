import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/**
 * A webhook's deliveries, on a stream of their own (`webhookdeliveries-<webhook id>`): which events it has been
 * sent, the attempt under way and the one failing. Instances coordinate through it: an attempt is claimed with the
 * stream's expected revision before it is sent, so two instances never send the same event at once, and a claim
 * whose instance died (its lease ran out) may be taken over (the only way a receiver gets an event twice).
 */
export interface DeliveryState {
  /** The position of the last event delivered in order (0: none). */
  deliveredThrough: bigint;
  claim: { position: bigint; instance: string; leaseUntil: string } | null;
  /** The event that keeps failing: its attempts so far and the time of the first. */
  failing: { position: bigint; attempts: number; since: string } | null;
}

/** Which event of the log a delivery sends. */
export interface DeliveredEvent {
  /** The `webhook-id` header: the same for every attempt of this event (the receiver drops duplicates by it). */
  deliveryId: string;
  eventId: string;
  eventType: string;
  eventStream: string;
  eventRevision: string;
  /** The event's global position, in decimal. */
  position: string;
}

export interface AttemptOutcome {
  outcome: 'succeeded' | 'failed';
  /** The receiver's status code; null when it did not answer (refused, timed out, unreachable). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: string;
  /** When it is tried again; null when it succeeded or is not retried. */
  nextAttemptAt: string | null;
}

export type ClaimDelivery = {
  type: 'ClaimDelivery';
  webhookId: string;
  event: DeliveredEvent;
  instance: string;
  leaseUntil: string;
};
export type RecordAttempt = {
  type: 'RecordAttempt';
  webhookId: string;
  event: DeliveredEvent;
  attempt: number;
  /** A redelivery asked for through the API: outside the order, it changes no progress. */
  redelivery: boolean;
  result: AttemptOutcome;
};
export type DeliveryCommand = ClaimDelivery | RecordAttempt;

export type WebhookDeliveryClaimed = DomainEvent<
  'WebhookDeliveryClaimed',
  DeliveredEvent & { webhookId: string; attempt: number; instance: string; leaseUntil: string }
>;
export type WebhookDeliveryAttempted = DomainEvent<
  'WebhookDeliveryAttempted',
  DeliveredEvent & AttemptOutcome & { webhookId: string; attempt: number; redelivery: boolean }
>;
export type DeliveryEvent = WebhookDeliveryClaimed | WebhookDeliveryAttempted;

export const DELIVERY_EVENT_TYPES = eventTypes<DeliveryEvent>({
  WebhookDeliveryClaimed: true,
  WebhookDeliveryAttempted: true,
});

export const deliveryStream = (webhookId: string) => `webhookdeliveries-${webhookId}`;

/** Another instance holds the attempt at this event; try again once it has recorded it or its lease ran out. */
export const CLAIMED_ELSEWHERE = 'delivery-claimed';

export const deliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> = {
  initialState: { deliveredThrough: 0n, claim: null, failing: null },

  decide(state, command, now) {
    const { webhookId, event } = command;
    const position = BigInt(event.position);
    if (command.type === 'RecordAttempt') {
      const { attempt, redelivery, result } = command;
      return [{ type: 'WebhookDeliveryAttempted', data: { ...event, ...result, webhookId, attempt, redelivery } }];
    }
    if (position <= state.deliveredThrough) return [];
    const { claim, failing } = state;
    if (
      claim &&
      claim.position === position &&
      claim.instance !== command.instance &&
      Date.parse(claim.leaseUntil) > now.getTime()
    ) {
      throw new DomainError(
        'conflict',
        `Event ${event.position} is being delivered by another instance`,
        [],
        CLAIMED_ELSEWHERE,
      );
    }
    const attempt = failing?.position === position ? failing.attempts + 1 : 1;
    const { instance, leaseUntil } = command;
    return [{ type: 'WebhookDeliveryClaimed', data: { ...event, webhookId, attempt, instance, leaseUntil } }];
  },

  evolve(state, event) {
    const position = BigInt(event.data.position);
    if (event.type === 'WebhookDeliveryClaimed') {
      const { instance, leaseUntil } = event.data;
      return { ...state, claim: { position, instance, leaseUntil } };
    }
    if (event.data.redelivery) return state;
    if (event.data.outcome === 'succeeded') {
      const deliveredThrough = position > state.deliveredThrough ? position : state.deliveredThrough;
      return { deliveredThrough, claim: null, failing: null };
    }
    const since = state.failing?.position === position ? state.failing.since : event.data.attemptedAt;
    return { ...state, claim: null, failing: { position, attempts: event.data.attempt, since } };
  },
};
