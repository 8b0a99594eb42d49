import {
  AppendResult,
  BatchAppendOutcome,
  ConcurrencyError,
  EventFilter,
  EventStore,
  ExpectedRevision,
  LogPage,
  LogPageRequest,
  LogJsonPage,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  StreamRead,
  StreamSnapshot,
  Subscription,
  SubscriptionHandler,
} from './event-store';

/**
 * Keeps a deployment's streams apart on a shared store: writes `<prefix>-<stream>`, reads and subscribes to
 * those streams only, and hands events back under their unprefixed names.
 */
export class PrefixedEventStore implements EventStore {
  readonly description: string;
  private readonly prefix: string;

  constructor(
    private readonly inner: EventStore,
    prefix: string,
  ) {
    this.prefix = `${prefix}-`;
    this.description = `${inner.description}, streams prefixed "${this.prefix}"`;
  }

  append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.append(this.prefix + stream, events, options);
  }

  get appendMultiple(): EventStore['appendMultiple'] {
    const inner = this.inner;
    if (!inner.appendMultiple) return undefined;
    return (appends) =>
      inner.appendMultiple!(appends.map((part) => this.prefixedPart(part))).catch((error) => {
        throw this.unprefixedError(error);
      });
  }

  async appendBatch(appends: Iterable<StreamAppend[]>, expected?: number): Promise<BatchAppendOutcome[]> {
    return this.unprefixedOutcomes(await this.inner.appendBatch(this.prefixedAppends(appends), expected));
  }

  get prepareBatch(): EventStore['prepareBatch'] {
    const inner = this.inner;
    if (!inner.prepareBatch) return undefined;
    return (appends, more) =>
      inner.prepareBatch!(
        appends.map((parts) => parts.map((part) => this.prefixedPart(part))),
        more,
      );
  }

  get appendPrepared(): EventStore['appendPrepared'] {
    const inner = this.inner;
    if (!inner.appendPrepared) return undefined;
    return async (prepared) => this.unprefixedOutcomes(await inner.appendPrepared!(prepared));
  }

  /** A batch's outcomes, their conflicts naming the streams without the prefix. */
  private unprefixedOutcomes(outcomes: BatchAppendOutcome[]): BatchAppendOutcome[] {
    return outcomes.map((outcome) => ('error' in outcome ? { error: this.unprefixedError(outcome.error) } : outcome));
  }

  async readStream(stream: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<StreamRead> {
    const read = await this.inner.readStream(this.prefix + stream, options);
    return { exists: read.exists, events: read.events.map((event) => this.unprefixed(event)) };
  }

  get deleteStream(): EventStore['deleteStream'] {
    const remove = this.inner.deleteStream?.bind(this.inner);
    return remove && ((stream) => remove(this.prefix + stream));
  }

  async readAll(options: { after?: bigint; maxCount?: number; filter?: EventFilter } = {}): Promise<RecordedEvent[]> {
    const events = await this.inner.readAll({ ...options, filter: this.prefixed(options.filter) });
    return events.map((event) => this.unprefixed(event));
  }

  async readLogPage(request: LogPageRequest): Promise<LogPage> {
    const page = await this.inner.readLogPage({ ...request, filter: this.prefixed(request.filter) });
    return { ...page, events: page.events.map((event) => this.unprefixed(event)) };
  }

  async readLogJson(request: LogPageRequest): Promise<LogJsonPage> {
    const page = await this.inner.readLogJson({ ...request, filter: this.prefixed(request.filter) });
    return { ...page, events: page.events.map((event) => this.unprefixed(event)) };
  }

  head(): Promise<bigint> {
    return this.inner.head();
  }

  readSnapshot(stream: string): Promise<StreamSnapshot | undefined> {
    return this.inner.readSnapshot(this.prefix + stream);
  }

  writeSnapshot(stream: string, snapshot: StreamSnapshot): Promise<void> {
    return this.inner.writeSnapshot(this.prefix + stream, snapshot);
  }

  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription {
    return this.inner.subscribe(
      { ...options, filter: this.prefixed(options.filter) },
      { ...handler, onEvents: (events) => handler.onEvents(events.map((event) => this.unprefixed(event))) },
    );
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private prefixed(filter: EventFilter = {}): EventFilter {
    const prefixes = filter.streamPrefixes?.length ? filter.streamPrefixes : [''];
    return {
      ...filter,
      streamPrefixes: prefixes.map((prefix) => this.prefix + prefix),
      streams: filter.streams?.map((stream) => this.prefix + stream),
    };
  }

  /** Each append prefixed as the inner store takes it. */
  private *prefixedAppends(appends: Iterable<StreamAppend[]>): Iterable<StreamAppend[]> {
    for (const parts of appends) yield parts.map((part) => this.prefixedPart(part));
  }

  private prefixedPart(part: StreamAppend): StreamAppend {
    return { ...part, stream: this.prefix + part.stream };
  }

  private unprefixedError(error: unknown): unknown {
    return error instanceof ConcurrencyError && error.stream.startsWith(this.prefix)
      ? new ConcurrencyError(error.stream.slice(this.prefix.length), error.expected, error.actual)
      : error;
  }

  private unprefixed<E extends { stream: string }>(event: E): E {
    return { ...event, stream: event.stream.slice(this.prefix.length) };
  }
}
