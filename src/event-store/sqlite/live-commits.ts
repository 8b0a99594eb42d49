import { EventFilter, RecordedEvent, matchesFilter } from '../event-store';
import { BatchEncoder } from './batch-encoder';
import { WriterOutcome } from './writer-protocol';

/** A commit as the writer reported it, for live subscriptions: the events it added between the two heads. */
export interface Commit {
  /** How many commits this store had made with this one. */
  sequence: number;
  headBefore: bigint;
  headAfter: bigint;
  events: RecordedEvent[];
  /** At least LARGE_COMMIT_BYTES: its subscriptions hand its events on one per turn of the event loop. */
  large: boolean;
}

/** What the writer reports of a commit, with the appends it was sent. */
export interface CommitReport {
  outcomes: WriterOutcome[];
  headBefore: number;
  headAfter: number;
  sent: { batch: BatchEncoder; recordedAt: number };
}

type Wake = (commit?: Commit) => void;

/**
 * Commits from this size on (the bytes of their events' JSON) are handed over in turns of their own: the waiting
 * subscriptions woken one per turn of the event loop, each event's data parsed when first read, and each
 * subscription's handler given the events one per turn. Smaller ones, nearly all, are handed over at once, parsed,
 * as a read would return them.
 */
export const LARGE_COMMIT_BYTES = 64 * 1024;

/**
 * A subscription waiting at the log's head: what it has seen (`after`), and the events it wants. A commit of this
 * store that follows on from `after` with none of those events does not wake it: `after` moves past the commit.
 */
export interface HeadWaiter {
  after: bigint;
  filter?: EventFilter;
}

interface Waiting {
  waiter: HeadWaiter;
  wake: Wake;
}

/**
 * Hands each commit of this store to the subscriptions waiting at the log's head, as a read of the log would
 * return its events, without reading them back. A subscription that waits also wakes after the poll interval,
 * to find what other processes wrote to the same file.
 */
export class LiveCommits {
  /** How many commits this store has made. */
  sequence = 0;
  private readonly waiters = new Set<Waiting>();

  constructor(private readonly pollIntervalMs: number) {}

  /**
   * The writer made a commit: counted, and handed to the subscriptions waiting for it (built only if one waits).
   * A filtered subscription none of whose events it holds sleeps on, past it (see HeadWaiter). The others are
   * woken; for a large commit, each in a turn of the event loop of its own, so that what they do with it (the
   * read models writing rows, a process manager acting on it, each parsing its data) does not add up in one turn.
   */
  committed(report: CommitReport): void {
    this.sequence++;
    if (this.waiters.size === 0) return;
    const large = report.sent.batch.size >= LARGE_COMMIT_BYTES;
    const commit = this.toCommit(report, large);
    const woken: Waiting[] = [];
    for (const waiting of this.waiters) {
      const { waiter } = waiting;
      if (waiter.filter && commit.headBefore <= waiter.after && !holdsAny(commit, waiter.filter)) {
        if (commit.headAfter > waiter.after) waiter.after = commit.headAfter;
      } else if (large) {
        // Its turn is taken now: a later commit reported before that turn must not wake it first, or it would
        // find this one missing and read it back.
        this.waiters.delete(waiting);
        woken.push(waiting);
      } else waiting.wake(commit);
    }
    if (woken.length > 0) wakeOnePerTurn(woken, commit);
  }

  /**
   * Waits for the next commit of this store that `waiter` wants (which it gives), `register`'s wake, or the poll
   * interval; `waiter.after` then says how far it has seen.
   */
  async next(register: (wake: Wake) => void, waiter: HeadWaiter = { after: 0n }): Promise<Commit | undefined> {
    let waiting: Waiting | undefined;
    const commit = await new Promise<Commit | undefined>((resolve) => {
      const timer = setTimeout(() => done(), this.pollIntervalMs);
      function done(commit?: Commit) {
        clearTimeout(timer);
        resolve(commit);
      }
      waiting = { waiter, wake: done };
      register(done);
      this.waiters.add(waiting);
    });
    if (waiting) this.waiters.delete(waiting);
    return commit;
  }

  /** Makes the waiting subscriptions look for events written by other processes now. */
  wakeAll(): void {
    for (const { wake } of this.waiters) wake();
  }

  /** The events a commit added, as a read of the log would return them. */
  private toCommit({ outcomes, headBefore, headAfter, sent }: CommitReport, parseLater: boolean): Commit {
    const events: RecordedEvent[] = [];
    const recordedAt = new Date(sent.recordedAt);
    const requests = sent.batch.decode();
    outcomes.forEach((outcome, i) => {
      if (!('ok' in outcome)) return;
      const request = requests[i];
      outcome.ok.forEach((result, part) => {
        if (result.position <= headBefore) return; // a repeat of an earlier append
        const { stream, events: partEvents } = request.parts[part];
        const count = partEvents.length;
        partEvents.forEach((event, k) => {
          if (event.type.startsWith('$')) return;
          const revision = BigInt(result.nextRevision - count + 1 + k);
          const position = BigInt(result.position - count + 1 + k);
          const { id, type } = event;
          if (parseLater) events.push(parseOnFirstRead({ id, type, stream, revision, position, recordedAt }, event));
          else {
            const [data, metadata] = [JSON.parse(event.data), JSON.parse(event.metadata)];
            events.push({ id, type, stream, revision, position, data, metadata, recordedAt });
          }
        });
      });
    });
    events.sort((a, b) => (a.position < b.position ? -1 : 1));
    const heads = { headBefore: BigInt(headBefore), headAfter: BigInt(headAfter) };
    return { sequence: this.sequence, ...heads, events, large: parseLater };
  }
}

/**
 * Wakes the subscriptions one per turn of the event loop, the first in the next: each is scheduled from the one
 * before, so timers and I/O (a health probe, other requests) go between them, which they would not if all were
 * scheduled at once (Node runs every callback already queued for its check phase in one go).
 */
function wakeOnePerTurn(woken: Waiting[], commit: Commit): void {
  let next = 0;
  const wakeNext = () => {
    woken[next++].wake(commit);
    if (next < woken.length) setImmediate(wakeNext);
  };
  setImmediate(wakeNext);
}

/**
 * Gives the event its `data` and `metadata`, each parsed from its JSON when first read and then kept (a value set
 * replaces it). They are own, enumerable properties, so spreading or serialising the event sees plain values.
 */
function parseOnFirstRead(
  recorded: Omit<RecordedEvent, 'data' | 'metadata'>,
  { data, metadata }: { data: string; metadata: string },
): RecordedEvent {
  const event = recorded as RecordedEvent;
  for (const [key, json] of [
    ['data', data],
    ['metadata', metadata],
  ] as const) {
    let parsed = false;
    let value: unknown;
    Object.defineProperty(event, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        if (!parsed) [value, parsed] = [JSON.parse(json), true];
        return value;
      },
      set: (next: unknown) => {
        [value, parsed] = [next, true];
      },
    });
  }
  return event;
}

function holdsAny({ events }: Commit, filter: EventFilter): boolean {
  for (const event of events) if (matchesFilter(event, filter)) return true;
  return false;
}
