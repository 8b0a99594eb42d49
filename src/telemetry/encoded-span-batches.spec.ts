import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { EncodedBatch, EncodedSpanBatches } from './encoded-span-batches';

describe('spans encoded as they end', () => {
  function setUp(options = { maxBatchSpans: 512, delayMillis: 60_000 }) {
    const sent: EncodedBatch[] = [];
    const batches = new EncodedSpanBatches(
      {
        export: (batch, done) => {
          sent.push(batch);
          done({ code: ExportResultCode.SUCCESS });
        },
        shutdown: async () => undefined,
      },
      options,
    );
    // The same spans, kept as objects, to encode with the OpenTelemetry serializer.
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'under-test', 'service.version': '1.2.3' }),
      spanProcessors: [new SimpleSpanProcessor(memory), batches],
    });
    return { sent, batches, memory, provider };
  }

  it('sends one request byte for byte as the OpenTelemetry serializer encodes the same spans, across scopes', async () => {
    const { sent, batches, memory, provider } = setUp();
    const service = provider.getTracer('workflows-agents-service');
    const other = provider.getTracer('ai', '5.0.0');
    const post = service.startSpan('POST /v1/agents', {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'POST', 'url.path': '/v1/agents', 'client.address': '127.0.0.1' },
    });
    const parent = { traceId: post.spanContext().traceId, spanId: post.spanContext().spanId, traceFlags: 1 };
    const { trace, ROOT_CONTEXT } = await import('@opentelemetry/api');
    const inPost = trace.setSpanContext(ROOT_CONTEXT, parent);
    const model = other.startSpan(
      'chat gpt-4o-mini',
      { attributes: { 'gen_ai.usage.input_tokens': 120, ok: true, ratio: 0.5, tags: ['a', 'b'] } },
      inPost,
    );
    model.addEvent('first token', { at: 3 });
    model.setStatus({ code: SpanStatusCode.ERROR, message: 'model failed: ünïcode' });
    model.end();
    service.startSpan('append agent', { attributes: { 'event_store.streams': 'agent-01J' } }, inPost).end();
    // A remote parent with a trace state, and a link with one.
    const remote = { ...parent, isRemote: true, traceState: new TraceState('vendor=v1') };
    const link = { context: { ...remote, spanId: 'b7ad6b7169203331' }, attributes: { 'link.kind': 'cause' } };
    service.startSpan('linked', { links: [link] }, trace.setSpanContext(ROOT_CONTEXT, remote)).end();
    post.setAttribute('http.response.status_code', 201);
    post.end();
    await batches.forceFlush();

    expect(sent).toHaveLength(1);
    expect(sent[0].spans).toBe(4);
    const expected = ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans()) as Uint8Array;
    expect(Buffer.from(sent[0].bytes).equals(Buffer.from(expected))).toBe(true);

    // The next batch starts empty.
    service.startSpan('GET /v1/agents').end();
    await batches.forceFlush();
    expect(sent).toHaveLength(2);
    const last = memory.getFinishedSpans().slice(-1);
    expect(
      Buffer.from(sent[1].bytes).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(last) as Uint8Array)),
    ).toBe(true);
  });

  it('drops a span it cannot encode, alone, and encodes right after a burst has grown its buffer', async () => {
    const { sent, batches, memory, provider } = setUp();
    const tracer = provider.getTracer('t');
    const serialized = (spans: ReadableSpan[]) =>
      Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array);
    tracer.startSpan('before').end();
    const broken = Object.create(memory.getFinishedSpans()[0], {
      events: {
        get: () => {
          throw new Error('cannot encode');
        },
      },
    }) as ReadableSpan;
    expect(() => batches.onEnd(broken)).not.toThrow();
    tracer.startSpan('after').end();
    await batches.forceFlush();
    expect(sent[0].spans).toBe(2);
    expect(Buffer.from(sent[0].bytes).equals(serialized(memory.getFinishedSpans()))).toBe(true);

    const big = 'x'.repeat(300_000);
    for (let i = 0; i < 5; i++) tracer.startSpan('big', { attributes: { big } }).end();
    await batches.forceFlush();
    tracer.startSpan('small').end();
    await batches.forceFlush();
    const spans = memory.getFinishedSpans();
    expect(sent.map((batch) => batch.spans)).toEqual([2, 5, 1]);
    expect(Buffer.from(sent[1].bytes).equals(serialized(spans.slice(2, 7)))).toBe(true);
    expect(Buffer.from(sent[2].bytes).equals(serialized(spans.slice(7)))).toBe(true);
  });

  it('sends a full batch at once, the rest after the delay, and what is left at shutdown; unsampled spans not at all', async () => {
    jest.useFakeTimers();
    try {
      const { sent, batches, provider } = setUp({ maxBatchSpans: 3, delayMillis: 1000 });
      const tracer = provider.getTracer('t');
      for (let i = 0; i < 4; i++) tracer.startSpan(`span ${i}`).end();
      expect(sent.map((batch) => batch.spans)).toEqual([3]);
      jest.advanceTimersByTime(999);
      expect(sent).toHaveLength(1);
      jest.advanceTimersByTime(1);
      expect(sent.map((batch) => batch.spans)).toEqual([3, 1]);

      const { trace, ROOT_CONTEXT } = await import('@opentelemetry/api');
      const unsampled = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        spanId: '00f067aa0ba902b7',
        traceFlags: 0,
      });
      const { ParentBasedSampler, AlwaysOnSampler } = await import('@opentelemetry/sdk-trace-base');
      const sampled = new BasicTracerProvider({
        sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
        spanProcessors: [batches],
      }).getTracer('t');
      sampled.startSpan('not sampled', {}, unsampled).end();
      sampled.startSpan('sampled').end();
      await batches.shutdown();
      expect(sent.map((batch) => batch.spans)).toEqual([3, 1, 1]);
      tracer.startSpan('after shutdown').end();
      await batches.forceFlush();
      expect(sent).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
