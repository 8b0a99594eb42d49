import { randomFillSync } from 'node:crypto';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
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
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { forgetTracer, takeChosenSpanId } from '../shared/trace-context';
import type { TelemetryConfig } from './telemetry-config';

/** Tracing while it is on: `stop` flushes the spans not sent yet and turns the API back into its no-op. */
export interface Tracing {
  stop(): Promise<void>;
}

/**
 * Loaded only when tracing is on: the SDK's tracer provider, registered as the API's, with the configured sampler,
 * W3C trace context, async context through AsyncLocalStorage, and an OTLP/HTTP exporter (or the one given, for
 * tests: spans are then handed over one by one, as they end).
 */
export async function startTracing(config: TelemetryConfig, exporter?: SpanExporter): Promise<Tracing> {
  const processor = exporter
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(await otlpExporter(config), { scheduledDelayMillis: 1000 });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: samplerOf(config),
    idGenerator: new ChosenOrRandomIds(),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
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
      context.disable();
    },
  };
}

async function otlpExporter({ tracesEndpoint: url, protocol, headers }: TelemetryConfig): Promise<SpanExporter> {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url, headers });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url, headers });
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
