import {
  Attributes,
  Context,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  Tracer,
  context,
  trace,
} from '@opentelemetry/api';

/**
 * Tracing through the OpenTelemetry API alone (a few kilobytes, no SDK): while tracing is off (no endpoint), every
 * call here is a no-op of the API's and nothing is recorded. The SDK is loaded only when tracing is on
 * (`src/telemetry/tracing-sdk.ts`).
 */
export function tracer(): Tracer {
  // Looked up once: the provider's lookup builds a key and searches a map on every call.
  return (cachedTracer ??= trace.getTracer('workflows-agents-service'));
}

let cachedTracer: Tracer | undefined;

/** Called when the tracer provider changes (tracing starts or stops): the next `tracer()` looks it up again. */
export function forgetTracer(): void {
  cachedTracer = undefined;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the active span, to store with events; undefined without one. */
export function currentTraceparent(): string | undefined {
  return traceparentOf(context.active());
}

/** The W3C `traceparent` of the span in `traced`; undefined without one. */
export function traceparentOf(traced: Context | undefined): string | undefined {
  const span = traced && trace.getSpanContext(traced);
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-0${span.traceFlags & TraceFlags.SAMPLED}`;
}

/**
 * A request's trace context travels explicitly, not in an async scope: the HTTP span's context is kept on the
 * request, the controller hands it to its command (`withTrace`), the command's span puts its own there, and the
 * handler passes it on in the actor's `CommandContext`. An async scope (AsyncLocalStorage) would make every promise
 * in the process pay Node's promise hooks.
 */
const TRACE = Symbol('traceContext');
type Carrier = { [TRACE]?: Context };

/** `carrier` (a request or a command) with `traced` as its trace context; the carrier itself, for chaining. */
export function withTrace<T extends object>(carrier: T, traced: Context | undefined): T {
  if (traced) (carrier as Carrier)[TRACE] = traced;
  return carrier;
}

/** The trace context given to `carrier` with `withTrace`, if any (only while tracing is on). */
export function traceOf(carrier: object): Context | undefined {
  return (carrier as Carrier)[TRACE];
}

/** A context whose parent is the span a stored `traceparent` names (from another instance, or before a restart). */
export function contextOf(traceparent: unknown, spanId?: string): Context | undefined {
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  if (!match) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1],
    spanId: spanId ?? match[2],
    traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/**
 * Runs `work` in `parent`'s context, or in the current one without it. Outside an async scope (`inAsyncScope`),
 * only `work`'s synchronous part sees it: enough for a span started at once (an append's).
 */
export function runIn<T>(parent: Context | undefined, work: () => T): T {
  return parent ? context.with(parent, work) : work();
}

/** Opens an async scope: see `inAsyncScope`. Set while tracing is on. */
type AsyncScopes = <T>(parent: Context, work: () => T) => T;
let asyncScopes: AsyncScopes | undefined;

export function setAsyncScopes(scopes: AsyncScopes | undefined): void {
  asyncScopes = scopes;
}

/**
 * Runs `work` in an async scope of `parent`'s context (the current one without it): the context then follows
 * every promise and callback of `work`, so a span started after an await (the AI SDK's, a step's append) is still
 * its child. Runs, workflow steps and scheduled ticks use one; requests do not (see `withTrace`). While tracing is
 * off this is a plain call.
 */
export function inAsyncScope<T>(parent: Context | undefined, work: () => T): T {
  return asyncScopes ? asyncScopes(parent ?? context.active(), work) : work();
}

/**
 * `work`, to be called later (a timer's task) in an async scope of the context active now: the scope it was set in
 * may have ended by then, and with it the async context (see `ScopedContextManager`).
 */
export function laterInThisScope<T>(work: () => T): () => T {
  if (!asyncScopes) return work;
  const parent = context.active();
  return () => inAsyncScope(parent, work);
}

/** The active trace context while tracing is on, to hand on explicitly (`CommandContext.trace`); else undefined. */
export function activeTrace(): Context | undefined {
  return asyncScopes ? context.active() : undefined;
}

/**
 * Runs `work` in a span (a child of the active one, or of `parent`), ending it with its outcome; `work` gets the
 * span and its context. One reaction on
 * `work`'s promise, not an async function's several promises: every promise costs the async hooks' work.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span, traced: Context) => Promise<T>,
  options: { parent?: Context; kind?: SpanKind; root?: boolean } = {},
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { attributes, kind: options.kind, root: options.root }, parent);
  const traced = trace.setSpan(parent, span);
  return ending(span, () => context.with(traced, work, undefined, span, traced));
}

/**
 * `inSpan` for work that starts no span of its own (an append): the span's context is neither made nor entered.
 */
export function inLeafSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, { attributes }, context.active());
  return ending(span, () => work(span));
}

/** What `work` promises, the span ended with its outcome once that settles (at once, should `work` throw). */
function ending<T>(span: Span, work: () => Promise<T>): Promise<T> {
  let result: Promise<T>;
  try {
    result = work();
  } catch (error) {
    endFailed(span, error);
    return Promise.reject(error as Error);
  }
  return Promise.resolve(result).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      endFailed(span, error);
      throw error;
    },
  );
}

function endFailed(span: Span, error: unknown): void {
  failed(span, error);
  span.end();
}

/** Marks a span as failed by `error`. */
export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.setAttribute('error.type', error instanceof Error ? error.constructor.name : 'Error');
}

/**
 * Span ids chosen by the caller: a span recorded after the fact (a workflow run, from its events) whose id its
 * children already named. The SDK's id generator takes the next id from here (`withSpanId`).
 */
let chosenSpanId: string | undefined;

export function takeChosenSpanId(): string | undefined {
  const id = chosenSpanId;
  chosenSpanId = undefined;
  return id;
}

/** Starts a span with the id `spanId` (16 hex digits) instead of a random one. */
export function withSpanId<T>(spanId: string, start: () => T): T {
  chosenSpanId = spanId;
  try {
    return start();
  } finally {
    chosenSpanId = undefined;
  }
}

let capture = false;
/** Traces whose spans carry no content (runs about a subject), the most recent ones. */
const withoutContent = new Set<string>();
const WITHOUT_CONTENT_KEPT = 10_000;

/**
 * Whether prompts, outputs and tool arguments and results go into spans (`OTEL_CAPTURE_CONTENT`): never into the
 * spans of a trace kept without content (`keepContentOut`).
 */
export function capturesContent(span?: Span): boolean {
  return capture && !(span && withoutContent.has(span.spanContext().traceId));
}

/**
 * The active span's trace carries no content from now on, whatever OTEL_CAPTURE_CONTENT says: a run about a subject
 * (an exported span cannot be forgotten with the subject).
 */
export function keepContentOut(): void {
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  if (!capture || !traceId) return;
  if (withoutContent.size >= WITHOUT_CONTENT_KEPT) withoutContent.delete(withoutContent.values().next().value!);
  withoutContent.add(traceId);
}

export function setCaptureContent(on: boolean): void {
  capture = on;
}

/** Whether a span would be recorded: work done only for spans (content to capture) is skipped otherwise. */
export function isRecording(): boolean {
  return trace.getActiveSpan()?.isRecording() ?? false;
}

export { SpanKind, SpanStatusCode };

/** A trace context, as controllers and commands carry it (the OpenTelemetry API's `Context`). */
export type TraceContext = Context;
