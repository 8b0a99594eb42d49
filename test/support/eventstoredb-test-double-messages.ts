/**
 * Protobuf messages of the EventStoreDB TEST DOUBLE (see eventstoredb-test-double.ts): how it reads the
 * client's requests and builds answers shaped as the real server's.
 */
import * as grpc from '@grpc/grpc-js';
import { Any } from 'google-protobuf/google/protobuf/any_pb';
import { Empty as ProtoEmpty } from 'google-protobuf/google/protobuf/empty_pb';
import { Code } from '@eventstore/db-client/generated/code_pb';
import {
  BadRequest,
  Empty,
  StreamIdentifier,
  UUID,
  WrongExpectedVersion,
} from '@eventstore/db-client/generated/shared_pb';
import { Status } from '@eventstore/db-client/generated/status_pb';
import { AppendReq, AppendResp, BatchAppendReq, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';

export type Expected =
  { kind: 'any' } | { kind: 'no_stream' } | { kind: 'stream_exists' } | { kind: 'revision'; revision: bigint };

export interface Proposed {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
}

export interface StoredEvent extends Proposed {
  stream: string;
  revision: bigint;
  position: bigint;
  /** .NET ticks (100 ns) since the Unix epoch, as the server sends `created`. */
  created: bigint;
}

export function readEvent(event: StoredEvent, structuredId: boolean): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(toUuid(event.id, structuredId))
    .setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(event.stream, 'utf8')))
    .setStreamRevision(String(event.revision))
    .setCommitPosition(String(event.position))
    .setPreparePosition(String(event.position))
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('content-type', event.contentType)
    .set('created', String(event.created));
  const read = new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(String(event.position));
  return new ReadResp().setEvent(read);
}

/** A server-side filter: on the stream name or the event type, by prefixes if any are given, else by regex. */
export function eventMatcher(filter: ReadReq.Options.FilterOptions | undefined): (event: StoredEvent) => boolean {
  if (!filter) return () => true;
  const onStream = filter.hasStreamIdentifier();
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType();
  const prefixes = expression?.getPrefixList() ?? [];
  const regex = expression?.getRegex() ? new RegExp(expression.getRegex()) : undefined;
  return (event) => {
    const value = onStream ? event.stream : event.type;
    if (prefixes.length > 0) return prefixes.some((prefix) => value.startsWith(prefix));
    return regex ? regex.test(value) : true;
  };
}

export function appendExpectation(options: AppendReq.Options): Expected {
  if (options.hasRevision()) return { kind: 'revision', revision: BigInt(options.getRevision()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  return { kind: 'any' };
}

export function batchExpectation(options: BatchAppendReq.Options): Expected {
  if (options.hasStreamPosition()) return { kind: 'revision', revision: BigInt(options.getStreamPosition()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  return { kind: 'any' };
}

/** As the server fills it: the current fields and the deprecated 20.6.0 ones alongside. */
export function appendWrongExpectedVersion(
  expected: Expected,
  current: bigint | undefined,
): AppendResp.WrongExpectedVersion {
  const wrong = new AppendResp.WrongExpectedVersion();
  if (expected.kind === 'any') wrong.setExpectedAny(new Empty()).setAny2060(new Empty());
  if (expected.kind === 'stream_exists') wrong.setExpectedStreamExists(new Empty()).setStreamExists2060(new Empty());
  // The server also sets expected_revision_20_6_0 to ulong.MaxValue here, which a JS number cannot hold.
  if (expected.kind === 'no_stream') wrong.setExpectedNoStream(new Empty());
  if (expected.kind === 'revision') {
    wrong.setExpectedRevision(String(expected.revision)).setExpectedRevision2060(Number(expected.revision));
  }
  if (current === undefined) wrong.setCurrentNoStream(new Empty()).setNoStream2060(new Empty());
  else wrong.setCurrentRevision(String(current)).setCurrentRevision2060(Number(current));
  return wrong;
}

/** BatchAppend reports the mismatch as a google.rpc.Status carrying a packed WrongExpectedVersion. */
export function wrongExpectedVersionStatus(expected: Expected, current: bigint | undefined): Status {
  const wrong = new WrongExpectedVersion();
  if (current === undefined) wrong.setCurrentNoStream(new ProtoEmpty());
  else wrong.setCurrentStreamRevision(String(current));
  if (expected.kind === 'revision') wrong.setExpectedStreamPosition(String(expected.revision));
  if (expected.kind === 'any') wrong.setExpectedAny(new ProtoEmpty());
  if (expected.kind === 'stream_exists') wrong.setExpectedStreamExists(new ProtoEmpty());
  if (expected.kind === 'no_stream') wrong.setExpectedNoStream(new ProtoEmpty());
  const details = new Any();
  details.pack(wrong.serializeBinary(), 'event_store.client.WrongExpectedVersion');
  return new Status().setCode(Code.ALREADY_EXISTS).setMessage('WrongExpectedVersion').setDetails(details);
}

/** Clients unpack the details of every error status, so they are always set. */
export function badRequest(message: string): Status {
  const details = new Any();
  details.pack(new BadRequest().setMessage(message).serializeBinary(), 'event_store.client.BadRequest');
  return new Status().setCode(Code.INVALID_ARGUMENT).setMessage('BadRequest').setDetails(details);
}

export function toProposed(message: AppendReq.ProposedMessage | BatchAppendReq.ProposedMessage | undefined): Proposed {
  const metadata = message?.getMetadataMap();
  const type = metadata?.get('type');
  const contentType = metadata?.get('content-type');
  if (!message || !type || !contentType) {
    throw rpcError(grpc.status.INVALID_ARGUMENT, 'A proposed message needs the "type" and "content-type" metadata');
  }
  return {
    id: uuidString(message.getId() ?? new UUID()),
    type,
    contentType,
    data: message.getData_asU8(),
    customMetadata: message.getCustomMetadata_asU8(),
  };
}

export function streamName(identifier: StreamIdentifier | undefined): string {
  return Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');
}

/** Clients ask for ids either as strings or as two signed 64-bit halves ("structured"). */
export function toUuid(id: string, structured: boolean): UUID {
  if (!structured) return new UUID().setString(id);
  const hex = id.replace(/-/g, '');
  const half = (part: string) => String(BigInt.asIntN(64, BigInt(`0x${part}`)));
  return new UUID().setStructured(
    new UUID.Structured().setMostSignificantBits(half(hex.slice(0, 16))).setLeastSignificantBits(half(hex.slice(16))),
  );
}

export function uuidString(uuid: UUID): string {
  if (!uuid.hasStructured()) return uuid.getString();
  const structured = uuid.getStructured()!;
  const half = (bits: string) => BigInt.asUintN(64, BigInt(bits)).toString(16).padStart(16, '0');
  const hex = half(structured.getMostSignificantBits()) + half(structured.getLeastSignificantBits());
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function json(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export function rpcError(code: grpc.status, details: string): grpc.ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}
