import { DomainError } from '../domain/decider';
import { matchesAny } from './event-patterns';
import { retryDelayMs } from './delivery/retry-delay';
import { DeliveredEvent, DeliveryEvent, DeliveryState, deliveryDecider } from './webhook-delivery';

const at = new Date('2026-03-01T12:00:00.000Z');
const event = (position: number): DeliveredEvent => ({
  deliveryId: `msg_${String(position).padStart(32, '0')}`,
  eventId: `e${position}`,
  eventType: 'AgentCreated',
  eventStream: 'agent-x',
  eventRevision: '0',
  position: String(position),
});
const fold = (events: DeliveryEvent[]): DeliveryState =>
  events.reduce(deliveryDecider.evolve, deliveryDecider.initialState);
const claim = (state: DeliveryState, position: number, instance: string, now = at) =>
  deliveryDecider.decide(
    state,
    {
      type: 'ClaimDelivery',
      webhookId: 'w',
      event: event(position),
      through: String(position),
      instance,
      leaseUntil: new Date(now.getTime() + 1000).toISOString(),
    },
    now,
  );
const attempted = (
  position: number,
  attempt: number,
  outcome: 'succeeded' | 'failed',
  redelivery = false,
): DeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    ...event(position),
    webhookId: 'w',
    attempt,
    redelivery,
    outcome,
    statusCode: outcome === 'succeeded' ? 200 : 500,
    durationMs: 1,
    error: null,
    attemptedAt: at.toISOString(),
    nextAttemptAt: null,
  },
});

describe('a webhook deliveries stream', () => {
  it('lets one instance claim an attempt until it records it or its lease runs out', () => {
    const claimed = fold(claim(fold([]), 5, 'a'));
    expect(() => claim(claimed, 5, 'b')).toThrow(DomainError);
    expect(claim(claimed, 5, 'a')).toHaveLength(1);
    expect(claim(claimed, 5, 'b', new Date(at.getTime() + 1001))).toEqual([
      expect.objectContaining({
        type: 'WebhookDeliveryClaimed',
        data: expect.objectContaining({ instance: 'b', attempt: 1 }),
      }),
    ]);
  });

  it('counts the attempts at a failing event, and claims nothing at or before what was delivered', () => {
    const failedTwice = fold([...claim(fold([]), 5, 'a'), attempted(5, 1, 'failed'), attempted(5, 2, 'failed')]);
    expect(failedTwice.failing).toEqual({
      position: 5n,
      attempts: 2,
      since: at.toISOString(),
      retryAt: null,
      by: null,
    });
    expect(claim(failedTwice, 5, 'b')[0].data).toMatchObject({ attempt: 3 });
    const delivered = fold([attempted(5, 1, 'succeeded')]);
    expect(claim(delivered, 5, 'a')).toEqual([]);
    expect(claim(delivered, 4, 'a')).toEqual([]);
    expect(claim(delivered, 6, 'a')).toHaveLength(1);
  });

  it('leaves the retry of a failing event to the instance that recorded it, until it is a lease overdue', () => {
    const failed = fold([
      ...claim(fold([]), 5, 'a'),
      {
        ...attempted(5, 1, 'failed'),
        data: {
          ...attempted(5, 1, 'failed').data,
          instance: 'a',
          nextAttemptAt: new Date(at.getTime() + 5000).toISOString(),
        },
      } as DeliveryEvent,
    ]);
    expect(claim(failed, 5, 'a')[0].data).toMatchObject({ attempt: 2 });
    expect(() => claim(failed, 5, 'b', new Date(at.getTime() + 5500))).toThrow(DomainError);
    expect(claim(failed, 5, 'b', new Date(at.getTime() + 6001))[0].data).toMatchObject({ attempt: 2, instance: 'b' });
  });

  it('changes no progress for a redelivery', () => {
    expect(fold([attempted(7, 2, 'succeeded', true)])).toEqual(deliveryDecider.initialState);
  });
});

describe('event patterns', () => {
  it.each([
    [['AgentRun*'], 'AgentRunSucceeded', true],
    [['AgentRun*'], 'AgentRun', true],
    [['AgentRun*'], 'AgentCreated', false],
    [['*'], 'WorkflowRunFailed', true],
    [['*Failed'], 'WorkflowRunFailed', true],
    [['AgentCreated'], 'AgentCreatedX', false],
    [['Workflow*', 'AgentCreated'], 'AgentCreated', true],
  ])('%j matches %s: %s', (patterns, type, matches) => {
    expect(matchesAny(patterns, type)).toBe(matches);
  });
});

describe('retry delays', () => {
  it('double from the base, within ±25 % jitter, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(1, 1000, () => 0)).toBe(750);
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1250);
    expect(retryDelayMs(40, 5000, () => 0.5)).toBe(3_600_000);
  });
});

describe('a deliveries snapshot', () => {
  it('gives back the state it was made of', () => {
    const state = fold([...claim(fold([]), 9, 'a'), attempted(9, 1, 'failed')]);
    const { toJson, fromJson } = deliveryDecider.snapshot!;
    expect(fromJson(JSON.parse(JSON.stringify(toJson!(state))))).toEqual(state);
    expect(() => fromJson({ nothing: true })).toThrow();
  });
});
