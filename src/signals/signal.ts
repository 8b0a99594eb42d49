import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/**
 * A signal: something that happened outside, sent to the workflow runs that wait for it by name and key. It is
 * recorded once and never changes; which runs it reached is decided by the signals' read model, in log order.
 */
export interface Signal {
  id: string;
  name: string;
  key: string | null;
  data: unknown;
  sentAt: string;
  /** Until when a signal that no run waited for is kept for a wait that begins later. */
  expiresAt: string;
}

export type SendSignal = {
  type: 'SendSignal';
  id: string;
  name: string;
  key: string | null;
  data: unknown;
  retentionMs: number;
};
export type SignalSent = DomainEvent<'SignalSent', Signal>;
export type SignalEvent = SignalSent;

export const SIGNAL_EVENT_TYPES = eventTypes<SignalEvent>({ SignalSent: true });

export const signalStream = (signalId: string) => `signal-${signalId}`;

export const signalDecider: Decider<Signal | null, SendSignal, SignalEvent> = {
  initialState: null,
  cacheActors: false,
  decide(state, { id, name, key, data, retentionMs }, now) {
    if (state) throw new DomainError('conflict', `Signal ${id} was already sent`);
    const expiresAt = new Date(now.getTime() + retentionMs).toISOString();
    return [{ type: 'SignalSent', data: { id, name, key, data, sentAt: now.toISOString(), expiresAt } }];
  },
  evolve: (state, event) => (event.type === 'SignalSent' ? event.data : state),
};
