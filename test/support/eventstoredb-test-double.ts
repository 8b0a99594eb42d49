/**
 * A TEST DOUBLE of an EventStoreDB server. It is NOT EventStoreDB.
 *
 * An in-process gRPC server built from the `@eventstore/db-client` package's own generated service
 * definitions, keeping streams in memory, so the EventStoreDB adapter runs its tests over real gRPC on
 * machines where no EventStoreDB server can be installed. It answers only what the adapter uses:
 * Streams.Append, Streams.BatchAppend, Streams.Read (a stream forwards or backwards, `$all` forwards,
 * subscriptions to either), Streams.Delete and ServerFeatures.GetSupportedMethods. Anything else answers UNIMPLEMENTED.
 * Stream metadata is an event on `$$<stream>`, as on the server; of it, only `$maxCount` is honoured (by reads
 * of the stream: the older events are no longer there).
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Empty as ProtoEmpty } from 'google-protobuf/google/protobuf/empty_pb';
import { IServerFeaturesServer, ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import { AllStreamPosition, Empty as SharedEmpty, UUID } from '@eventstore/db-client/generated/shared_pb';
import { IStreamsServer, StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import {
  AppendReq,
  AppendResp,
  BatchAppendReq,
  BatchAppendResp,
  DeleteResp,
  ReadReq,
  ReadResp,
} from '@eventstore/db-client/generated/streams_pb';
import {
  Expected,
  Proposed,
  StoredEvent,
  appendExpectation,
  appendWrongExpectedVersion,
  badRequest,
  batchExpectation,
  eventMatcher,
  json,
  readEvent,
  rpcError,
  streamName,
  toProposed,
  uuidString,
  wrongExpectedVersionStatus,
} from './eventstoredb-test-double-messages';

export type { StoredEvent } from './eventstoredb-test-double-messages';

/** Positions are the global index times a stride, like a real log's byte offsets: increasing, not contiguous. */
const POSITION_STRIDE = 1000n;
const TICKS_PER_MS = 10_000n;
const DEFAULT_SEARCH_WINDOW = 32;
const STREAMS = 'event_store.client.streams.Streams';

/** `current` is undefined when the stream does not exist. */
type AppendOutcome = { ok: true; revision: bigint; position: bigint } | { ok: false; current: bigint | undefined };

type ReadCall = grpc.ServerWritableStream<ReadReq, ReadResp>;

export interface EventStoreDbTestDoubleOptions {
  /** Advertise Streams.BatchAppend in GetSupportedMethods, so the client appends through it. */
  batchAppend?: boolean;
}

export class EventStoreDbTestDouble {
  /** Calls served per RPC (BatchAppend: per append request), so tests can tell which path the client took. */
  readonly calls = { append: 0, batchAppend: 0, read: 0, getSupportedMethods: 0 };
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly subscriptions = new Set<LiveSubscription>();
  private server: grpc.Server | undefined;
  private port = 0;

  private constructor(private readonly options: EventStoreDbTestDoubleOptions) {}

  static async create(options: EventStoreDbTestDoubleOptions = {}): Promise<EventStoreDbTestDouble> {
    const double = new EventStoreDbTestDouble(options);
    await double.start();
    return double;
  }

  get connectionString(): string {
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  /** Serves on a random port the first time, then again on the same port and with the same data after stop(). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = new grpc.Server();
    server.addService(StreamsService, this.streamsService());
    server.addService(ServerFeaturesService, this.serverFeaturesService());
    this.port = await bindWithRetry(server, this.port);
    this.server = server;
  }

  /** Simulates the server going down: every connection and call is dropped; the data stays for start(). */
  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.close();
    this.subscriptions.clear();
    this.server?.forceShutdown();
    this.server = undefined;
  }

  close(): Promise<void> {
    return this.stop();
  }

  /** The events of one stream as stored, for assertions. */
  streamEvents(stream: string): StoredEvent[] {
    return [...(this.streams.get(stream) ?? [])];
  }

  /** Every event as stored, in the order of `$all` (a deleted stream's events too, as until a scavenge). */
  allEvents(): StoredEvent[] {
    return [...this.log];
  }

  /** Writes straight into the store, bypassing gRPC and expectations: e.g. the `$`-system events a real server holds. */
  inject(stream: string, type: string, data: unknown = {}): StoredEvent {
    const proposed = {
      id: randomUUID(),
      type,
      contentType: 'application/json',
      data: json(data),
      customMetadata: new Uint8Array(),
    };
    return this.write(stream, [proposed])[0];
  }

  private streamsService(): IStreamsServer {
    return {
      read: (call) => this.read(call),
      append: (call, callback) => this.append(call, callback),
      batchAppend: (call) => this.batchAppend(call),
      // A soft delete: the stream reads as absent; its events stay in `$all`, as a real server keeps them until a
      // scavenge. Expectations are not checked (the service deletes with "any").
      delete: (call, callback) => {
        this.streams.delete(streamName(call.request.getOptions()?.getStreamIdentifier()));
        callback(null, new DeleteResp().setNoPosition(new SharedEmpty()));
      },
      tombstone: (_call, callback) =>
        callback(rpcError(grpc.status.UNIMPLEMENTED, 'Tombstone is not in the test double')),
    };
  }

  private serverFeaturesService(): IServerFeaturesServer {
    return {
      getSupportedMethods: (_call, callback) => {
        this.calls.getSupportedMethods++;
        const names = ['read', 'append', ...(this.options.batchAppend ? ['batchappend'] : [])];
        const methods = names.map((name) =>
          new SupportedMethod().setServiceName(STREAMS.toLowerCase()).setMethodName(name),
        );
        callback(
          null,
          new SupportedMethods().setMethodsList(methods).setEventStoreServerVersion('24.10.0-test-double'),
        );
      },
    };
  }

  // Streams.Read: one stream, `$all`, or (with the subscription option) a catch-up subscription to either.
  private read(call: ReadCall): void {
    this.calls.read++;
    call.on('error', () => undefined);
    const options = call.request.getOptions();
    if (!options) return void call.emit('error', rpcError(grpc.status.INVALID_ARGUMENT, 'ReadReq without options'));
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    if (backwards && options.hasSubscription()) {
      const unimplemented = rpcError(grpc.status.UNIMPLEMENTED, 'The test double subscribes only forwards');
      return void call.emit('error', unimplemented);
    }
    const toMessage = (event: StoredEvent) => readEvent(event, options.getUuidOption()?.hasStructured() ?? false);
    if (options.hasSubscription()) return this.subscribe(call, options, toMessage);

    const count = Number(options.getCount());
    let events: StoredEvent[];
    if (options.hasStream()) {
      const stream = options.getStream()!;
      const name = streamName(stream.getStreamIdentifier());
      const existing = this.streams.get(name);
      if (!existing) {
        const notFound = new ReadResp.StreamNotFound().setStreamIdentifier(stream.getStreamIdentifier());
        return void send(call, new ReadResp().setStreamNotFound(notFound)).then(() => call.end());
      }
      const kept = this.firstKept(name, existing);
      if (backwards) {
        const from = stream.hasRevision() ? Number(stream.getRevision()) : existing.length - 1;
        events = existing.slice(Math.max(kept, from - count + 1), from + 1).reverse();
      } else {
        const from = stream.hasRevision() ? Number(stream.getRevision()) : stream.hasEnd() ? existing.length : 0;
        events = existing.slice(Math.max(kept, from), Math.max(kept, from) + count);
      }
    } else {
      const all = options.getAll()!;
      // A read of `$all` from a position includes the event at that position.
      const from = all.hasPosition()
        ? this.firstIndexFrom(BigInt(all.getPosition()!.getCommitPosition()))
        : all.hasEnd()
          ? this.log.length
          : 0;
      const matches = eventMatcher(options.hasFilter() ? options.getFilter() : undefined);
      // Backwards, a read from a position gives the events before it, the newest first.
      events = backwards
        ? this.log
            .slice(0, all.hasStart() ? 0 : from)
            .filter(matches)
            .reverse()
            .slice(0, count)
        : this.log.slice(from).filter(matches).slice(0, count);
    }
    void (async () => {
      for (const event of events) await send(call, toMessage(event));
      call.end();
    })();
  }

  private subscribe(call: ReadCall, options: ReadReq.Options, toMessage: (event: StoredEvent) => ReadResp): void {
    let source: () => StoredEvent[];
    let from: number;
    let matches: (event: StoredEvent) => boolean = () => true;
    let checkpointEvery: number | undefined;
    if (options.hasStream()) {
      const stream = options.getStream()!;
      const name = streamName(stream.getStreamIdentifier());
      source = () => this.streams.get(name) ?? [];
      // Subscribing from a revision starts after it.
      from = stream.hasRevision() ? Number(stream.getRevision()) + 1 : stream.hasEnd() ? source().length : 0;
    } else {
      const all = options.getAll()!;
      source = () => this.log;
      from = all.hasPosition()
        ? this.firstIndexFrom(BigInt(all.getPosition()!.getCommitPosition()) + 1n)
        : all.hasEnd()
          ? this.log.length
          : 0;
      const filter = options.hasFilter() ? options.getFilter() : undefined;
      if (filter) {
        matches = eventMatcher(filter);
        const window = filter.hasMax() ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
        checkpointEvery = window * Math.max(1, filter.getCheckpointintervalmultiplier());
      }
    }
    const subscription = new LiveSubscription(call, source, from, matches, checkpointEvery, toMessage);
    this.subscriptions.add(subscription);
    call.on('cancelled', () => {
      subscription.close();
      this.subscriptions.delete(subscription);
    });
    const confirmation = new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
    void send(call, new ReadResp().setConfirmation(confirmation)).then(() => subscription.pump());
  }

  // Streams.Append: client streaming, the options first, then one proposed message per event.
  private append(
    call: grpc.ServerReadableStream<AppendReq, AppendResp>,
    callback: grpc.sendUnaryData<AppendResp>,
  ): void {
    this.calls.append++;
    const requests: AppendReq[] = [];
    call.on('error', () => undefined);
    call.on('data', (request: AppendReq) => requests.push(request));
    call.on('end', () => {
      try {
        callback(null, this.appendResponse(requests));
      } catch (error) {
        callback(error as grpc.ServiceError);
      }
    });
  }

  private appendResponse(requests: AppendReq[]): AppendResp {
    const [first, ...rest] = requests;
    const options = first?.getOptions();
    if (!options) throw rpcError(grpc.status.INVALID_ARGUMENT, 'The first AppendReq must carry the options');
    const expected = appendExpectation(options);
    const outcome = this.appendEvents(
      streamName(options.getStreamIdentifier()),
      expected,
      rest.map((request) => toProposed(request.getProposedMessage())),
    );
    if (!outcome.ok)
      return new AppendResp().setWrongExpectedVersion(appendWrongExpectedVersion(expected, outcome.current));
    const position = new AppendResp.Position()
      .setCommitPosition(String(outcome.position))
      .setPreparePosition(String(outcome.position));
    const success = new AppendResp.Success().setCurrentRevision(String(outcome.revision)).setPosition(position);
    return new AppendResp().setSuccess(success);
  }

  // Streams.BatchAppend: bidirectional; requests with one correlation id gather until is_final, then one answer.
  private batchAppend(call: grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>): void {
    const pending = new Map<string, { options?: BatchAppendReq.Options; proposed: BatchAppendReq.ProposedMessage[] }>();
    call.on('error', () => undefined);
    call.on('end', () => call.end());
    call.on('data', (request: BatchAppendReq) => {
      const correlationId = request.getCorrelationId() ?? new UUID();
      const key = uuidString(correlationId);
      const batch = pending.get(key) ?? { proposed: [] };
      if (request.hasOptions()) batch.options = request.getOptions();
      if (!request.getIsFinal()) {
        batch.proposed.push(...request.getProposedMessagesList());
        return void pending.set(key, batch);
      }
      pending.delete(key);
      this.calls.batchAppend++;
      batch.proposed.push(...request.getProposedMessagesList());
      call.write(this.batchAppendResponse(correlationId, batch.options, batch.proposed));
    });
  }

  private batchAppendResponse(
    correlationId: UUID,
    options: BatchAppendReq.Options | undefined,
    messages: BatchAppendReq.ProposedMessage[],
  ): BatchAppendResp {
    const response = new BatchAppendResp().setCorrelationId(correlationId);
    if (!options) return response.setError(badRequest('The first BatchAppendReq must carry the options'));
    response.setStreamIdentifier(options.getStreamIdentifier());
    const expected = batchExpectation(options);
    if (expected.kind === 'revision') response.setStreamPosition(String(expected.revision));
    if (expected.kind === 'no_stream') response.setNoStream(new ProtoEmpty());
    if (expected.kind === 'any') response.setAny(new ProtoEmpty());
    if (expected.kind === 'stream_exists') response.setStreamExists(new ProtoEmpty());
    let outcome: AppendOutcome;
    try {
      outcome = this.appendEvents(streamName(options.getStreamIdentifier()), expected, messages.map(toProposed));
    } catch (error) {
      return response.setError(badRequest((error as Error).message));
    }
    if (!outcome.ok) return response.setError(wrongExpectedVersionStatus(expected, outcome.current));
    const position = new AllStreamPosition()
      .setCommitPosition(String(outcome.position))
      .setPreparePosition(String(outcome.position));
    return response.setSuccess(
      new BatchAppendResp.Success().setCurrentRevision(String(outcome.revision)).setPosition(position),
    );
  }

  private appendEvents(stream: string, expected: Expected, proposed: Proposed[]): AppendOutcome {
    const existing = this.streams.get(stream) ?? [];
    const current = existing.length > 0 ? BigInt(existing.length - 1) : undefined;
    if (proposed.length === 0)
      throw rpcError(grpc.status.INVALID_ARGUMENT, 'The test double needs at least one event per append');
    const replay = replayedAppend(existing, expected, proposed);
    if (replay) return replay;
    if (!holds(expected, current)) return { ok: false, current };
    const written = this.write(stream, proposed);
    const last = written[written.length - 1];
    return { ok: true, revision: last.revision, position: last.position };
  }

  private write(stream: string, proposed: Proposed[]): StoredEvent[] {
    let events = this.streams.get(stream);
    if (!events) this.streams.set(stream, (events = []));
    const created = BigInt(Date.now()) * TICKS_PER_MS;
    const written = proposed.map((event) => {
      const stored = {
        ...event,
        stream,
        revision: BigInt(events.length),
        position: BigInt(this.log.length + 1) * POSITION_STRIDE,
        created,
      };
      events.push(stored);
      this.log.push(stored);
      return stored;
    });
    for (const subscription of this.subscriptions) void subscription.pump();
    return written;
  }

  /** The index of the first event a read of the stream returns: those before it are past its `$maxCount`. */
  private firstKept(stream: string, events: StoredEvent[]): number {
    const metadata = this.streams.get(`$$${stream}`)?.at(-1);
    if (!metadata) return 0;
    const maxCount = (JSON.parse(Buffer.from(metadata.data).toString('utf8')) as { $maxCount?: unknown }).$maxCount;
    return typeof maxCount === 'number' ? Math.max(0, events.length - maxCount) : 0;
  }

  private firstIndexFrom(position: bigint): number {
    const index = this.log.findIndex((event) => event.position >= position);
    return index < 0 ? this.log.length : index;
  }
}

/** One subscription call: sends from its cursor to the end, then CaughtUp once, then each new event as it lands. */
class LiveSubscription {
  private pumping = false;
  private again = false;
  private caughtUp = false;
  private closed = false;
  private sinceCheckpoint = 0;

  constructor(
    private readonly call: ReadCall,
    private readonly source: () => StoredEvent[],
    private cursor: number,
    private readonly matches: (event: StoredEvent) => boolean,
    private readonly checkpointEvery: number | undefined,
    private readonly toMessage: (event: StoredEvent) => ReadResp,
  ) {}

  async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const events = this.source();
        while (!this.closed && this.cursor < events.length) {
          const event = events[this.cursor++];
          if (this.matches(event)) await send(this.call, this.toMessage(event));
          if (this.checkpointEvery && ++this.sinceCheckpoint >= this.checkpointEvery) {
            this.sinceCheckpoint = 0;
            const checkpoint = new ReadResp.Checkpoint()
              .setCommitPosition(String(event.position))
              .setPreparePosition(String(event.position));
            await send(this.call, new ReadResp().setCheckpoint(checkpoint));
          }
        }
        if (!this.caughtUp && !this.closed) {
          this.caughtUp = true;
          await send(this.call, new ReadResp().setCaughtUp(new ReadResp.CaughtUp()));
        }
      } while (this.again && !this.closed);
    } finally {
      this.pumping = false;
    }
  }

  close(): void {
    this.closed = true;
  }
}

/** Writes with backpressure: waits for 'drain' when the call's buffer is full. */
function send(call: ReadCall, message: ReadResp): Promise<void> {
  if (call.cancelled || call.write(message)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
  });
}

/** The same ids written right after the same expectation are acknowledged again, not written twice. */
function replayedAppend(existing: StoredEvent[], expected: Expected, proposed: Proposed[]): AppendOutcome | undefined {
  const start = existing.findIndex((event) => event.id === proposed[0].id);
  if (start < 0) return undefined;
  const sameWrite = proposed.every((event, i) => existing[start + i]?.id === event.id);
  if (!sameWrite || !holds(expected, start === 0 ? undefined : BigInt(start - 1))) {
    return { ok: false, current: BigInt(existing.length - 1) };
  }
  const last = existing[start + proposed.length - 1];
  return { ok: true, revision: last.revision, position: last.position };
}

function holds(expected: Expected, current: bigint | undefined): boolean {
  switch (expected.kind) {
    case 'any':
      return true;
    case 'no_stream':
      return current === undefined;
    case 'stream_exists':
      return current !== undefined;
    case 'revision':
      return current === expected.revision;
  }
}

async function bindWithRetry(server: grpc.Server, port: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await new Promise<number>((resolve, reject) =>
        server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) =>
          error ? reject(error) : resolve(bound),
        ),
      );
    } catch (error) {
      // The port of a server that was just shut down can take a moment to be free again.
      if (port === 0 || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
