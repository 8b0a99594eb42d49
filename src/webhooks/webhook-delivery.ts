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
  /** The attempt under way: from `position` to `through` at most, by one instance until its lease runs out. */
  claim: { position: bigint; through: bigint; instance: string; leaseUntil: string } | null;
  /**
   * The event that keeps failing: its attempts so far, the time of the first, and the next one's time and
   * instance (the instance that recorded the failure retries it; another only once that one is overdue).
   */
  failing: { position: bigint; attempts: number; since: string; retryAt: string | null; by: string | null } | null;
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

/** Claims the sending of `event` and of the webhook's next events up to `through` (a batch sent one by one). */
export type ClaimDelivery = {
  type: 'ClaimDelivery';
  webhookId: string;
  event: DeliveredEvent;
  through: string;
  instance: string;
  leaseUntil: string;
};
export interface Attempt {
  event: DeliveredEvent;
  attempt: number;
  result: AttemptOutcome;
}
/** Records attempts, in the order they were made, in one commit. */
export type RecordAttempts = {
  type: 'RecordAttempts';
  webhookId: string;
  /** The instance that made them (none for a redelivery). */
  instance?: string;
  attempts: Attempt[];
  /** A redelivery asked for through the API: outside the order, it changes no progress. */
  redelivery: boolean;
};
export type DeliveryCommand = ClaimDelivery | RecordAttempts;

export type WebhookDeliveryClaimed = DomainEvent<
  'WebhookDeliveryClaimed',
  DeliveredEvent & { webhookId: string; through: string; attempt: number; instance: string; leaseUntil: string }
>;
export type WebhookDeliveryAttempted = DomainEvent<
  'WebhookDeliveryAttempted',
  DeliveredEvent & AttemptOutcome & { webhookId: string; attempt: number; redelivery: boolean; instance?: string }
>;
export type DeliveryEvent = WebhookDeliveryClaimed | WebhookDeliveryAttempted;

export const DELIVERY_EVENT_TYPES = eventTypes<DeliveryEvent>({
  WebhookDeliveryClaimed: true,
  WebhookDeliveryAttempted: true,
});

export const deliveryStream = (webhookId: string) => `webhookdeliveries-${webhookId}`;

/** Another instance holds the attempt at this event; try again once it has recorded it or its lease ran out. */
export const CLAIMED_ELSEWHERE = 'delivery-claimed';
/** Another instance retries this event at its time. */
export const RETRY_ELSEWHERE = 'delivery-retry-elsewhere';

export const deliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> = {
  initialState: { deliveredThrough: 0n, claim: null, failing: null },
  // The stream grows by an event or so per event delivered: loading it after a restart reads a snapshot.
  snapshot: {
    version: 2,
    toJson: (state) =>
      JSON.parse(JSON.stringify(state, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value))),
    fromJson: (json) => {
      const state = JSON.parse(JSON.stringify(json), (_key, value) =>
        typeof value === 'string' && /^[0-9]+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
      ) as DeliveryState;
      if (typeof state?.deliveredThrough !== 'bigint') throw new Error('Not a deliveries snapshot');
      return state;
    },
  },

  decide(state, command, now) {
    const { webhookId } = command;
    if (command.type === 'RecordAttempts') {
      const { redelivery, instance } = command;
      return command.attempts.map(({ event, attempt, result }) => ({
        type: 'WebhookDeliveryAttempted' as const,
        data: { ...event, ...result, webhookId, attempt, redelivery, ...(instance ? { instance } : {}) },
      }));
    }
    const { event } = command;
    const position = BigInt(event.position);
    if (position <= state.deliveredThrough) return [];
    const { claim, failing } = state;
    // One instance sends a webhook's events at a time, which keeps them in order.
    if (claim && claim.instance !== command.instance && Date.parse(claim.leaseUntil) > now.getTime()) {
      throw new DomainError(
        'conflict',
        `Event ${event.position} is being delivered by another instance`,
        [],
        CLAIMED_ELSEWHERE,
      );
    }
    // A retry is the failing instance's to make at its time; another takes it over once it is a lease overdue.
    const leaseMs = Date.parse(command.leaseUntil) - now.getTime();
    if (
      failing?.position === position &&
      failing.by &&
      failing.by !== command.instance &&
      failing.retryAt &&
      Date.parse(failing.retryAt) + leaseMs > now.getTime()
    ) {
      throw new DomainError(
        'conflict',
        `Event ${event.position} is to be retried by another instance`,
        [],
        RETRY_ELSEWHERE,
      );
    }
    const attempt = failing?.position === position ? failing.attempts + 1 : 1;
    const { through, instance, leaseUntil } = command;
    return [{ type: 'WebhookDeliveryClaimed', data: { ...event, webhookId, through, attempt, instance, leaseUntil } }];
  },

  evolve(state, event) {
    const position = BigInt(event.data.position);
    if (event.type === 'WebhookDeliveryClaimed') {
      const { instance, leaseUntil } = event.data;
      return { ...state, claim: { position, through: BigInt(event.data.through), instance, leaseUntil } };
    }
    if (event.data.redelivery) return state;
    if (event.data.outcome === 'succeeded') {
      const deliveredThrough = position > state.deliveredThrough ? position : state.deliveredThrough;
      return { deliveredThrough, claim: null, failing: null };
    }
    const since = state.failing?.position === position ? state.failing.since : event.data.attemptedAt;
    const { attempt: attempts, nextAttemptAt: retryAt, instance: by = null } = event.data;
    return { ...state, claim: null, failing: { position, attempts, since, retryAt, by } };
  },
};
