import type { Attributes, AttributeValue, Context, Link } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Redaction } from '../shared/redaction';

/**
 * The one place every ended span passes on its way to the exporter: its name, status message, attributes, events
 * (recorded exceptions included) and links are redacted as the run records are, so that a provider's or a tool's
 * error text quoting a key or a URL's password never reaches a collector, whichever code made the span.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(
    private readonly next: SpanProcessor,
    private readonly redaction: Redaction,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.next.onEnd(redactedSpan(span, this.redaction));
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/** The span itself when nothing in it needs redacting (the usual case, which costs no copy), else a redacted copy. */
export function redactedSpan(span: ReadableSpan, redaction: Redaction): ReadableSpan {
  const text = (value: string) => redaction.apply(value);
  const name = text(span.name);
  const message = span.status.message === undefined ? undefined : text(span.status.message);
  const attributes = redactedAttributes(span.attributes, text);
  const events = sameOr(
    span.events,
    span.events.map((event) => redactedEvent(event, text)),
  );
  const links = sameOr(
    span.links,
    span.links.map((link) => redactedLink(link, text)),
  );
  const status = message === span.status.message ? span.status : { ...span.status, message };
  if (name === span.name && status === span.status && attributes === span.attributes && !events && !links) {
    return span;
  }
  // The exporters group spans by their resource and scope objects: the copy keeps the same ones.
  return {
    name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status,
    attributes,
    links: links ?? span.links,
    events: events ?? span.events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function redactedEvent(event: TimedEvent, text: (value: string) => string): TimedEvent {
  const name = text(event.name);
  const attributes = event.attributes && redactedAttributes(event.attributes, text);
  return name === event.name && attributes === event.attributes ? event : { ...event, name, attributes };
}

function redactedLink(link: Link, text: (value: string) => string): Link {
  const attributes = link.attributes && redactedAttributes(link.attributes, text);
  return attributes === link.attributes ? link : { ...link, attributes };
}

/** The same object when no value changes. */
function redactedAttributes(attributes: Attributes, text: (value: string) => string): Attributes {
  let copy: Attributes | undefined;
  for (const key in attributes) {
    const value = attributes[key];
    const redacted = redactedValue(value, text);
    if (redacted === value) continue;
    copy ??= { ...attributes };
    copy[key] = redacted;
  }
  return copy ?? attributes;
}

function redactedValue(value: AttributeValue | undefined, text: (value: string) => string): AttributeValue | undefined {
  if (typeof value === 'string') return text(value);
  if (!Array.isArray(value)) return value;
  const items: unknown[] = value;
  const changed = sameOr(
    items,
    items.map((item) => (typeof item === 'string' ? text(item) : item)),
  );
  return (changed as AttributeValue | undefined) ?? value;
}

/** `changed` when one of its items differs from the one at its place in `original`, else undefined. */
function sameOr<T>(original: readonly T[], changed: T[]): T[] | undefined {
  return changed.some((item, index) => item !== original[index]) ? changed : undefined;
}
