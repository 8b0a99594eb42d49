import { randomFillSync } from 'node:crypto';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  IdGenerator,
  ParentBasedSampler,
  Sampler,
  SimpleSpanProcessor,
  SpanExporter,
  SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { forgetTracer, setAsyncScopes, takeChosenSpanId } from '../shared/trace-context';
import { ScopedContextManager } from './scoped-context-manager';
import { RedactingSpanProcessor } from './redacting-span-processor';
import type { Redaction } from '../shared/redaction';
import type { EncodedBatch } from './encoded-span-batches';
import type { TelemetryConfig } from '../config/telemetry-config';

type NodeHttpExport = typeof import('@opentelemetry/otlp-exporter-base/build/src/index-node-http');

/** Tracing while it is on: `stop` flushes the spans not sent yet and turns the API back into its no-op. */
export interface Tracing {
  stop(): Promise<void>;
}

/**
 * Loaded only when tracing is on: the SDK's tracer provider, registered as the API's, with the configured sampler,
 * W3C trace context, the context carried explicitly on requests and in async scopes for runs and ticks
 * (`ScopedContextManager`), and an OTLP/HTTP exporter (or the one given, for
 * tests: spans are then handed over one by one, as they end). Spans are redacted with `redaction` before export.
 */
export async function startTracing(
  config: TelemetryConfig,
  redaction: Redaction,
  exporter?: SpanExporter,
): Promise<Tracing> {
  const exporting = exporter ? new SimpleSpanProcessor(exporter) : await otlpProcessor(config);
  // Every span goes through the redaction on its way out, whichever code made it.
  const processor = new RedactingSpanProcessor(exporting, redaction);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: samplerOf(config),
    idGenerator: new ChosenOrRandomIds(),
    spanProcessors: [processor],
  });
  const contextManager = new ScopedContextManager();
  context.setGlobalContextManager(contextManager);
  setAsyncScopes((parent, work) => contextManager.scope(parent, work));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  forgetTracer();
  return {
    async stop() {
      // A collector that does not answer must not hold the shutdown: the spans not sent by then are dropped.
      await Promise.race([provider.shutdown(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      trace.disable();
      forgetTracer();
      propagation.disable();
      setAsyncScopes(undefined);
      context.disable();
    },
  };
}

/**
 * OTLP/HTTP in batches of up to 512 spans, sent at least every second. Protobuf (the default): spans encoded as they
 * end (`EncodedSpanBatches`), sent by the OpenTelemetry exporter's HTTP delegate (its retries, timeouts, headers and
 * proxy settings). JSON: the SDK's own batch processor and JSON exporter.
 */
async function otlpProcessor({ tracesEndpoint: url, protocol, headers }: TelemetryConfig): Promise<SpanProcessor> {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new BatchSpanProcessor(new OTLPTraceExporter({ url, headers }), { scheduledDelayMillis: 1000 });
  }
  const [{ OTLPExporterBase }, http, { ProtobufTraceSerializer }, { EncodedSpanBatches }] = await Promise.all([
    import('@opentelemetry/otlp-exporter-base'),
    // A subpath export, which this project's module resolution cannot type: typed from the file it names.
    import('@opentelemetry/otlp-exporter-base/node-http' as string) as Promise<NodeHttpExport>,
    import('@opentelemetry/otlp-transformer'),
    import('./encoded-span-batches'),
  ]);
  const delegate = http.createOtlpHttpExportDelegate<EncodedBatch, unknown>(
    http.convertLegacyHttpOptions({ url, headers }, 'TRACES', 'v1/traces', {
      'Content-Type': 'application/x-protobuf',
    }),
    // The batch is encoded already.
    { serializeRequest: (batch) => batch.bytes, deserializeResponse: ProtobufTraceSerializer.deserializeResponse },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  return new EncodedSpanBatches(new OTLPExporterBase<EncodedBatch>(delegate), {
    maxBatchSpans: 512,
    delayMillis: 1000,
  });
}

function samplerOf({ sampler, samplerArg }: TelemetryConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(samplerArg);
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Random ids, except a span id chosen by the caller (`withSpanId`). The random bytes come from the system's
 * generator 4 KiB at a time: cheaper per id than the SDK's default, which draws each id from Math.random.
 */
export class ChosenOrRandomIds implements IdGenerator {
  private readonly pool = Buffer.allocUnsafe(4096);
  private offset = this.pool.length;
  generateTraceId = (): string => {
    const id = this.randomHex(16);
    // All zeros is the invalid trace id: drawn once in 2^128.
    return id === '00000000000000000000000000000000' ? this.generateTraceId() : id;
  };
  generateSpanId = (): string => {
    const chosen = takeChosenSpanId();
    if (chosen) return chosen;
    const id = this.randomHex(8);
    return id === '0000000000000000' ? this.generateSpanId() : id;
  };

  private randomHex(bytes: number): string {
    if (this.offset + bytes > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    this.offset += bytes;
    return this.pool.toString('hex', this.offset - bytes, this.offset);
  }
}
