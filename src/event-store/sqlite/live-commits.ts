import { EventFilter, RecordedEvent, matchesFilter } from '../event-store';
import { BatchEncoder, WriterOutcome } from './writer-protocol';

/** A commit as the writer reported it, for live subscriptions: the events it added between the two heads. */
export interface Commit {
  /** How many commits this store had made with this one. */
  sequence: number;
  headBefore: bigint;
  headAfter: bigint;
  events: RecordedEvent[];
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
   * A filtered subscription none of whose events it holds sleeps on, past it (see HeadWaiter). Each of the others
   * is woken in a turn of the event loop of its own, so that what they do with a large commit (a projection
   * writing rows, a process manager acting on it) does not add up in one turn; an event's data is parsed once,
   * by the first of them to read it.
   */
  committed(report: CommitReport): void {
    this.sequence++;
    if (this.waiters.size === 0) return;
    const commit = this.toCommit(report);
    for (const waiting of this.waiters) {
      const { waiter } = waiting;
      if (waiter.filter && commit.headBefore <= waiter.after && !holdsAny(commit, waiter.filter)) {
        if (commit.headAfter > waiter.after) waiter.after = commit.headAfter;
      } else setImmediate(() => waiting.wake(commit));
    }
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
  private toCommit({ outcomes, headBefore, headAfter, sent }: CommitReport): Commit {
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
          const recorded = {
            id: event.id,
            type: event.type,
            stream,
            revision: BigInt(result.nextRevision - count + 1 + k),
            position: BigInt(result.position - count + 1 + k),
            recordedAt,
          } as RecordedEvent;
          events.push(parseOnFirstRead(recorded, event.data, event.metadata));
        });
      });
    });
    events.sort((a, b) => (a.position < b.position ? -1 : 1));
    return { sequence: this.sequence, headBefore: BigInt(headBefore), headAfter: BigInt(headAfter), events };
  }
}

/**
 * Gives the event its `data` and `metadata`, each parsed from its JSON when first read and then kept (a value set
 * replaces it). They are own, enumerable properties, so spreading or serialising the event sees plain values.
 */
function parseOnFirstRead(event: RecordedEvent, dataJson: string, metadataJson: string): RecordedEvent {
  for (const [key, json] of [
    ['data', dataJson],
    ['metadata', metadataJson],
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
