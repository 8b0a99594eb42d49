import type { HrTime, Link, SpanContext, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
// The OpenTelemetry serializer's own writer and field writers (the package has no exports map; the version is pinned,
// and encoded-span-batches.spec.ts holds the bytes to the serializer's).
import { hexToBinary } from '@opentelemetry/otlp-transformer/build/src/common/hex-to-binary';
import {
  writeAttributes,
  writeHrTimeAsFixed64,
} from '@opentelemetry/otlp-transformer/build/src/common/protobuf/common-serializer';
import { ProtobufWriter } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-writer';

export { ProtobufWriter };

/**
 * Writes `span` as a `spans` field (2) of ScopeSpans: the fields in the order, and with the rules, of the OpenTelemetry
 * serializer (`serializeSpan` in @opentelemetry/otlp-transformer), which does not export it.
 */
export function writeSpanField(writer: ProtobufWriter, span: ReadableSpan): void {
  writer.writeTag(2, 2);
  const start = writer.startLengthDelimited();
  const from = writer.pos;
  const context = span.spanContext();
  writeIds(writer, context);
  if (span.parentSpanContext?.spanId) {
    writer.writeTag(4, 2);
    writer.writeBytes(hexToBinary(span.parentSpanContext.spanId));
  }
  writer.writeTag(5, 2);
  writer.writeString(span.name);
  // The API's kinds count from 0 (internal); OTLP's from 1, 0 being "unspecified".
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    writer.writeTag(6, 0);
    writer.writeVarint(kind);
  }
  writer.writeTag(7, 1);
  writeHrTimeAsFixed64(writer, span.startTime);
  writer.writeTag(8, 1);
  writeHrTimeAsFixed64(writer, span.endTime);
  if (span.attributes) writeAttributes(writer, span.attributes, 9);
  writer.writeTag(10, 0);
  writer.writeVarint(span.droppedAttributesCount);
  for (const event of span.events) writeEvent(writer, event);
  writer.writeTag(12, 0);
  writer.writeVarint(span.droppedEventsCount);
  for (const link of span.links) writeLink(writer, link);
  writer.writeTag(14, 0);
  writer.writeVarint(span.droppedLinksCount);
  writeStatus(writer, span.status);
  const flags = flagsOf(context.traceFlags, span.parentSpanContext?.isRemote);
  if (flags) {
    writer.writeTag(16, 5);
    writer.writeFixed32(flags);
  }
  writer.finishLengthDelimited(start, writer.pos - from);
}

function writeStatus(writer: ProtobufWriter, status: SpanStatus): void {
  writer.writeTag(15, 2);
  const start = writer.startLengthDelimited();
  const from = writer.pos;
  if (status.message) {
    writer.writeTag(2, 2);
    writer.writeString(status.message);
  }
  writer.writeTag(3, 0);
  writer.writeVarint(status.code);
  writer.finishLengthDelimited(start, writer.pos - from);
}

function writeEvent(writer: ProtobufWriter, event: TimedEvent): void {
  writer.writeTag(11, 2);
  const start = writer.startLengthDelimited();
  const from = writer.pos;
  writer.writeTag(1, 1);
  writeHrTimeAsFixed64(writer, event.time as HrTime);
  writer.writeTag(2, 2);
  writer.writeString(event.name);
  if (event.attributes) writeAttributes(writer, event.attributes, 3);
  writer.writeTag(4, 0);
  writer.writeVarint(event.droppedAttributesCount || 0);
  writer.finishLengthDelimited(start, writer.pos - from);
}

/** Fields 1 to 3 of a Span and of a Link alike: trace id, span id, trace state. */
function writeIds(writer: ProtobufWriter, context: SpanContext): void {
  writer.writeTag(1, 2);
  writer.writeBytes(hexToBinary(context.traceId));
  writer.writeTag(2, 2);
  writer.writeBytes(hexToBinary(context.spanId));
  const traceState = context.traceState?.serialize();
  if (traceState) {
    writer.writeTag(3, 2);
    writer.writeString(traceState);
  }
}

function writeLink(writer: ProtobufWriter, link: Link): void {
  writer.writeTag(13, 2);
  const start = writer.startLengthDelimited();
  const from = writer.pos;
  const context = link.context;
  writeIds(writer, context);
  if (link.attributes) writeAttributes(writer, link.attributes, 4);
  writer.writeTag(5, 0);
  writer.writeVarint(link.droppedAttributesCount || 0);
  const flags = flagsOf(context.traceFlags, context.isRemote);
  if (flags) {
    writer.writeTag(6, 5);
    writer.writeFixed32(flags);
  }
  writer.finishLengthDelimited(start, writer.pos - from);
}

/** OTLP's span flags: the W3C trace flags, and whether the parent is known to be remote. */
function flagsOf(traceFlags: number, isRemote: boolean | undefined): number {
  let flags = traceFlags & 0xff;
  flags |= 0x100;
  if (isRemote) flags |= 0x200;
  return flags;
}
