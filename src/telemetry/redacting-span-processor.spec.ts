import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Redaction } from '../shared/redaction';
import { RedactingSpanProcessor } from './redacting-span-processor';

const KEY = 'sk-provider-key-0123456789';

describe('RedactingSpanProcessor', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new RedactingSpanProcessor(new SimpleSpanProcessor(exporter), new Redaction([KEY]))],
  });
  const tracer = provider.getTracer('test');
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('redacts the name, status, attributes, events (recorded exceptions) and links of an ended span', () => {
    const linked = tracer.startSpan('linked');
    linked.end();
    const span = tracer.startSpan(`call ${KEY}`, {
      links: [{ context: linked.spanContext(), attributes: { why: `key ${KEY}` } }],
    });
    span.setAttributes({ plain: 'kept', url: 'https://user:password@host.example/x', list: ['a', KEY], n: 1 });
    span.recordException(new Error(`Incorrect API key ${KEY}`));
    span.setStatus({ code: SpanStatusCode.ERROR, message: `Incorrect API key ${KEY}` });
    span.end();
    const [, exported] = exporter.getFinishedSpans();
    expect(exported.name).toBe('call ***');
    expect(exported.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Incorrect API key ***' });
    expect(exported.attributes).toEqual({ plain: 'kept', url: 'https://***@host.example/x', list: ['a', '***'], n: 1 });
    expect(exported.events[0].attributes?.['exception.message']).toBe('Incorrect API key ***');
    expect(String(exported.events[0].attributes?.['exception.stacktrace'])).not.toContain(KEY);
    expect(exported.links[0].attributes).toEqual({ why: 'key ***' });
    expect(exported.spanContext()).toEqual(span.spanContext());
    expect(JSON.stringify(exported)).not.toContain(KEY);
  });

  it('hands on the span itself when it holds no secret', () => {
    const span = tracer.startSpan('plain', { attributes: { a: 'b' } });
    span.end();
    expect(exporter.getFinishedSpans()[0]).toBe(span);
  });
});
