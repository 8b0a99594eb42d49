import { TraceFlags, diag } from '@opentelemetry/api';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ProtobufWriter, writeSpanField } from './otlp-span-encoding';

/** A batch ready to send: an OTLP `ExportTraceServiceRequest` in protobuf, and how many spans it holds. */
export interface EncodedBatch {
  bytes: Uint8Array;
  spans: number;
}

export interface EncodedBatchExporter {
  export(batch: EncodedBatch, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/** A scope's buffer of encoded spans starts this large, and is kept between batches up to KEPT_WRITER_BYTES. */
const WRITER_BYTES = 64 * 1024;
const KEPT_WRITER_BYTES = 1024 * 1024;

/** The spans of one resource and instrumentation scope, encoded, and the bytes around them in the request. */
interface ScopeGroup {
  resourcePrefix: Uint8Array;
  resourceSuffix: Uint8Array;
  scopePrefix: Uint8Array;
  scopeSuffix: Uint8Array;
  /** The `spans` fields (tag, length, Span message), one after the other: bytes, no objects for the GC to keep. */
  spans: ProtobufWriter;
}

/**
 * A batching span processor that encodes each span into OTLP protobuf as it ends, with the OpenTelemetry
 * serializer's writer, and keeps only its bytes until the batch is sent. The SDK's BatchSpanProcessor keeps the span objects
 * themselves for up to its delay: at a thousand requests a second they outlive the young generation, and the
 * garbage collector copies and promotes thousands of them, which cost more than encoding them. The request sent is
 * byte for byte the serializer's for the same spans (tested).
 */
export class EncodedSpanBatches implements SpanProcessor {
  /** By resource, then by instrumentation scope (the SDK shares these objects between spans). */
  private readonly groups = new Map<object, Map<object, ScopeGroup>>();
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly exporter: EncodedBatchExporter,
    private readonly options: { maxBatchSpans: number; delayMillis: number } = {
      maxBatchSpans: 512,
      delayMillis: 1000,
    },
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (!this.add(span)) return;
    if (++this.pending >= this.options.maxBatchSpans) this.send();
    else this.timer ??= setTimeout(() => this.send(), this.options.delayMillis).unref();
  }

  async forceFlush(): Promise<void> {
    this.send();
    await Promise.all(this.inFlight);
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.exporter.shutdown();
  }

  /** Encodes the span into its group; false (and nothing written) when it cannot be encoded. */
  private add(span: ReadableSpan): boolean {
    let scopes = this.groups.get(span.resource);
    if (!scopes) this.groups.set(span.resource, (scopes = new Map()));
    let group = scopes.get(span.instrumentationScope);
    if (!group) {
      // The bytes around the spans, taken once from the serializer's request for this first span.
      const parts = partsOf(ProtobufTraceSerializer.serializeRequest([span]) as Uint8Array);
      group = {
        resourcePrefix: parts.resourcePrefix.slice(),
        resourceSuffix: parts.resourceSuffix.slice(),
        scopePrefix: parts.scopePrefix.slice(),
        scopeSuffix: parts.scopeSuffix.slice(),
        spans: new ProtobufWriter(WRITER_BYTES),
      };
      scopes.set(span.instrumentationScope, group);
    }
    const from = group.spans.pos;
    try {
      writeSpanField(group.spans, span);
      return true;
    } catch (error) {
      // Half a span would spoil the whole request, and the error must not reach the code that ended the span.
      group.spans.pos = from;
      diag.error('A span could not be encoded and was dropped', error);
      return false;
    }
  }

  /** Sends what is pending, if anything, as one request. */
  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === 0) return;
    const batch = { bytes: this.encodeRequest(), spans: this.pending };
    this.pending = 0;
    const sent = new Promise<void>((resolve) =>
      this.exporter.export(batch, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          diag.error(`${batch.spans} spans were not exported`, result.error);
        }
        resolve();
      }),
    );
    this.inFlight.add(sent);
    void sent.then(() => this.inFlight.delete(sent));
  }

  /** `ExportTraceServiceRequest { resource_spans (1) { resource, scope_spans (2) { scope, spans… } } }`. */
  private encodeRequest(): Buffer {
    const chunks: Uint8Array[] = [];
    for (const scopes of this.groups.values()) {
      let resource: ScopeGroup | undefined;
      const scopeChunks: Uint8Array[] = [];
      let scopesLength = 0;
      for (const group of scopes.values()) {
        if (group.spans.pos === 0) continue;
        resource = group;
        const length = group.scopePrefix.length + group.spans.pos + group.scopeSuffix.length;
        const head = fieldHead(2, length);
        scopeChunks.push(head, group.scopePrefix, group.spans.finish(), group.scopeSuffix);
        scopesLength += head.length + length;
      }
      if (!resource) continue;
      const length = resource.resourcePrefix.length + scopesLength + resource.resourceSuffix.length;
      chunks.push(fieldHead(1, length), resource.resourcePrefix, ...scopeChunks, resource.resourceSuffix);
    }
    // Copies the spans out: their buffers are filled again from the start, or let go when a burst (prompts captured,
    // say) grew them past KEPT_WRITER_BYTES.
    const request = Buffer.concat(chunks);
    for (const scopes of this.groups.values())
      for (const group of scopes.values()) {
        if (group.spans.pos > KEPT_WRITER_BYTES) group.spans = new ProtobufWriter(WRITER_BYTES);
        else group.spans.pos = 0;
      }
    return request;
  }
}

/**
 * The parts of a request holding one span: the bytes of its ResourceSpans before and after its one ScopeSpans, the
 * bytes of that ScopeSpans before and after its one span, and the span's field (tag and length included).
 */
function partsOf(request: Uint8Array) {
  const resourceSpans = onlyField(request, 0, request.length, 1);
  const scopeSpans = onlyField(request, resourceSpans.start, resourceSpans.end, 2);
  const span = onlyField(request, scopeSpans.start, scopeSpans.end, 2);
  return {
    resourcePrefix: request.subarray(resourceSpans.start, scopeSpans.fieldStart),
    resourceSuffix: request.subarray(scopeSpans.end, resourceSpans.end),
    scopePrefix: request.subarray(scopeSpans.start, span.fieldStart),
    scopeSuffix: request.subarray(span.end, scopeSpans.end),
    spanField: request.subarray(span.fieldStart, span.end),
  };
}

/** The one length-delimited field `field` in `bytes[from, to)`: where its tag starts, and its content. */
function onlyField(bytes: Uint8Array, from: number, to: number, field: number) {
  let pos = from;
  while (pos < to) {
    const fieldStart = pos;
    const [tag, afterTag] = varintAt(bytes, pos);
    pos = afterTag;
    const wireType = tag & 7;
    if (wireType === 2) {
      const [length, start] = varintAt(bytes, pos);
      if (tag >>> 3 === field) return { fieldStart, start, end: start + length };
      pos = start + length;
    } else if (wireType === 0) pos = varintAt(bytes, pos)[1];
    else if (wireType === 1) pos += 8;
    else if (wireType === 5) pos += 4;
    else break;
  }
  throw new Error(`OTLP request without field ${field} where one span's was expected`);
}

function varintAt(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let pos = at;
  for (;;) {
    const byte = bytes[pos++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, pos];
    shift += 7;
  }
}

/** The tag of a length-delimited field and its length, as varints. */
function fieldHead(field: number, length: number): Uint8Array {
  const bytes = [(field << 3) | 2];
  let rest = length;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}
