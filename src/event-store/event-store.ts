/** The event store contract shared by every adapter (docs/architecture.md, "The event store"). */

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  schemaVersion: number;
  /** The W3C trace context the event was recorded in (while tracing is on): whoever acts on it continues the trace. */
  traceparent?: string;
  /** The subject the event is about, whose data key seals its content (docs/security.md, "Forgetting a person"). */
  subject?: string;
}

/** An event to append: the store gives it a stream, revision, position and time. */
export interface NewEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  stream: string;
  /** 0-based, contiguous within the stream. */
  revision: bigint;
  /** Global position: strictly increasing over the whole log, opaque. */
  position: bigint;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream (0 after the first event). */
  nextRevision: bigint;
  /** Global position of the last appended event. */
  position: bigint;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/** Appends a store has taken ahead of their commit (EventStore.prepareBatch); only that store can commit them. */
export interface PreparedAppends {
  /** How many appends it holds. */
  readonly count: number;
}

/** How one append of a batch went: what it wrote, part by part, or why it was refused (a ConcurrencyError on a conflict). */
export type BatchAppendOutcome = { ok: AppendResult[] } | { error: unknown };

/**
 * A cached state of a stream: what its decider's `evolve` made of its events up to `revision`. The store keeps the
 * last one written per stream beside the stream, never among its events nor on the global log. A cache only:
 * the actor that reads one may ignore it and replay the stream.
 */
export interface StreamSnapshot {
  /** Revision of the last event folded into `state`. */
  revision: bigint;
  /** The version of the decider's snapshot format that wrote it (see `Decider.snapshot`). */
  schemaVersion: number;
  /** The state as JSON-compatible data; the store writes it as JSON and gives it back parsed. */
  state: unknown;
}

export interface StreamRead {
  exists: boolean;
  events: RecordedEvent[];
}

/** Selects events of the global log; system events (type starting with `$`) are always excluded. */
export interface EventFilter {
  streamPrefixes?: string[];
  /** Whole stream names (an index serves them, unlike prefixes). */
  streams?: string[];
  eventTypes?: string[];
  /** Streams left out whatever else matches: those whose names start with any of these (e.g. `webhook`). */
  excludeStreamPrefixes?: string[];
}

/** A bounded read of the global log, for pages: forwards after `after`, or backwards before `before`. */
export interface LogPageRequest {
  direction: 'forward' | 'backward';
  /** Forward: exclusive; the events after it (default: from the start). */
  after?: bigint;
  /** Backward: exclusive; the events before it (default: from the head). */
  before?: bigint;
  maxCount: number;
  /**
   * Ends the page once its events' data and metadata hold this many bytes of JSON (a page holds at least one
   * event, however large): what one read may hold in memory, whatever the events' sizes.
   */
  maxBytes?: number;
  filter?: EventFilter;
}

/**
 * What a bounded read found. A filtered read looks at a bounded stretch of the log, so it may find fewer events
 * than asked (none, even) before the end: `cursor` is where it stopped looking, the next read's `after` (forward)
 * or `before` (backward); `end` says it reached the head (forward) or the start (backward).
 */
export interface LogPage {
  events: RecordedEvent[];
  cursor: bigint;
  end: boolean;
}

/**
 * An event as the store holds it, its data and metadata as their JSON in UTF-8 bytes, neither decoded nor parsed:
 * for readers that only pass it on.
 */
export interface EventJson extends Omit<RecordedEvent, 'data' | 'metadata'> {
  dataJson: Buffer;
  metadataJson: Buffer;
}

/** A `LogPage` of events as their JSON. */
export interface LogJsonPage extends Omit<LogPage, 'events'> {
  events: EventJson[];
}

export interface SubscriptionHandler {
  /** Called with events in position order; the next batch waits until the returned promise settles. */
  onEvents(events: RecordedEvent[]): void | Promise<void>;
  /** Called each time the subscription has delivered every event that existed when it looked. */
  onCaughtUp?(): void;
  /** Called when the subscription stops because of an error it could not recover from. */
  onError?(error: unknown): void;
  /** Called once when the connection to the store dropped; the subscription keeps retrying by itself. */
  onDropped?(reason: unknown): void;
  /** Called once when the subscription is confirmed again after a drop; it resumes from where it stopped. */
  onResumed?(): void;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventStore {
  /** Human-readable, credential-free description for logs and health. */
  readonly description: string;
  append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult>;
  /**
   * Optional: appends to several streams in one commit, all or nothing, each with its expectation; a conflict on
   * any stream throws its ConcurrencyError and writes nothing. Results in the order given. SQLite has it;
   * EventStoreDB has no multi-stream transaction, so callers keep a step-by-step path for stores without it.
   */
  appendMultiple?(appends: StreamAppend[]): Promise<AppendResult[]>;
  /**
   * Many independent appends at once, each all or nothing over its parts with their expectations; one refused (a
   * conflict on any of its parts) writes nothing of its own and stops none of the others. Outcomes in the order
   * given; the promise rejects only if the store cannot answer at all. SQLite writes them in one commit;
   * EventStoreDB sends them side by side and, having no multi-stream commit, refuses an append of several parts.
   * The appends are read once, within the call, as the store takes them: an iterable that makes each append as it
   * is asked for (a scheduler's pass deciding its triggers) lets each one go as soon as it is taken. Should reading
   * them throw, the batch rejects with that error and writes none of them. `expected`, when the caller knows it,
   * is about how many appends there will be: a hint for the room the store sets aside, nothing more.
   */
  appendBatch(appends: Iterable<StreamAppend[]>, expected?: number): Promise<BatchAppendOutcome[]>;
  /**
   * Optional: takes a batch's appends now, to commit them later with `appendPrepared`. What a scheduler knows it
   * will append at a coming tick is encoded before it, so that at the tick only the commit remains. With `more`
   * (prepared by this store, none of it committed yet), the appends are added to it, after its own: a batch
   * prepared in steps. SQLite has it; a store without it is given the appends themselves at the tick (appendBatch).
   */
  prepareBatch?(appends: StreamAppend[][], more?: PreparedAppends): PreparedAppends;
  /**
   * Commits prepared appends as appendBatch would, all in the next commit, each with its expectations (a stream
   * that moved on since is refused with its ConcurrencyError). Of each prepared batch only the appends `keep` marks
   * go; outcomes for those, in order. Each prepared append commits once.
   */
  appendPrepared?(prepared: Array<{ appends: PreparedAppends; keep: boolean[] }>): Promise<BatchAppendOutcome[]>;
  readStream(stream: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<StreamRead>;
  /**
   * Optional: removes a stream, for what must not outlive a request to forget (a subject's data keys). EventStoreDB
   * has it (a soft delete: the stream reads as absent at once, and its events leave the disk at the next scavenge);
   * SQLite keeps its log for good, and keeps such things in files of their own instead.
   */
  deleteStream?(stream: string): Promise<void>;
  readAll(options?: { after?: bigint; maxCount?: number; filter?: EventFilter }): Promise<RecordedEvent[]>;
  /**
   * A page of the global log that costs a bounded amount of work whatever the filter (no request may hold the
   * service up): events in the direction read, at most `maxCount`, and where the read stopped.
   */
  readLogPage(request: LogPageRequest): Promise<LogPage>;
  /**
   * The same page with each event's data and metadata as JSON bytes: what serves the log to clients, who get the
   * JSON as it is, so that no page is decoded, parsed and encoded again on its way out.
   */
  readLogJson(request: LogPageRequest): Promise<LogJsonPage>;
  /** The position of the log's last event (0 when it has none). */
  head(): Promise<bigint>;
  /** The snapshot of `stream` written last, or undefined. Throws if the stored one cannot be read back. */
  readSnapshot(stream: string): Promise<StreamSnapshot | undefined>;
  /**
   * Replaces the snapshot of `stream` (the last write wins). Not synced to disk: a snapshot lost in a crash
   * only makes the next load replay more. Readers of the stream and subscribers of the log never see it.
   */
  writeSnapshot(stream: string, snapshot: StreamSnapshot): Promise<void>;
  /** At-least-once, in order, never skipping: catches up from `after` (exclusive), then goes live. */
  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');

export class ConcurrencyError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'ConcurrencyError';
  }
}

/** The store cannot be reached or failed; the request may be retried. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

export function matchesFilter(event: { type: string; stream: string }, filter?: EventFilter): boolean {
  if (event.type.startsWith('$')) return false;
  // An empty list filters nothing, as in the SQLite adapter's query.
  if (filter?.eventTypes?.length && !filter.eventTypes.includes(event.type)) return false;
  if (filter?.streams?.length && !filter.streams.includes(event.stream)) return false;
  if (filter?.streamPrefixes?.length && !filter.streamPrefixes.some((prefix) => event.stream.startsWith(prefix)))
    return false;
  if (filter?.excludeStreamPrefixes?.some((prefix) => event.stream.startsWith(prefix))) return false;
  return true;
}
