import { Span, context } from '@opentelemetry/api';
import { SpanKind, capturesContent, failed, inSpan, tracer } from '../shared/trace-context';

/**
 * Spans of model and tool calls after the OpenTelemetry semantic conventions for generative AI: `chat <model>` per
 * model call (each step of the tool loop), `execute_tool <tool>` per tool call, with their `gen_ai.*` attributes.
 * Messages, answers, arguments and results only with `OTEL_CAPTURE_CONTENT=true`, and never for a run about a
 * subject (see keepContentOut).
 */
export function startModelCall(modelId: string, content: () => { instructions: string; messages: unknown }): Span {
  const slash = modelId.indexOf('/');
  const provider = modelId.slice(0, slash);
  const model = modelId.slice(slash + 1);
  const span = tracer().startSpan(`chat ${model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.system': provider,
      'gen_ai.request.model': model,
    },
  });
  if (span.isRecording() && capturesContent(span)) {
    const { instructions, messages } = content();
    span.setAttribute('gen_ai.system_instructions', JSON.stringify([{ type: 'text', content: instructions }]));
    span.setAttribute('gen_ai.input.messages', JSON.stringify(messages));
  }
  return span;
}

/** The end of a model call: its usage, why it stopped, and (capturing content) its text. */
export function endModelCall(
  span: Span,
  step: {
    usage: { inputTokens?: number; outputTokens?: number };
    finishReason: string;
    response: { id?: string; modelId?: string };
    text: string;
  },
): void {
  span.setAttributes({
    'gen_ai.usage.input_tokens': step.usage.inputTokens ?? 0,
    'gen_ai.usage.output_tokens': step.usage.outputTokens ?? 0,
    'gen_ai.response.finish_reasons': [step.finishReason],
    ...(step.response.id && { 'gen_ai.response.id': step.response.id }),
    ...(step.response.modelId && { 'gen_ai.response.model': step.response.modelId }),
  });
  if (span.isRecording() && capturesContent(span)) {
    const message = {
      role: 'assistant',
      parts: [{ type: 'text', content: step.text }],
      finish_reason: step.finishReason,
    };
    span.setAttribute('gen_ai.output.messages', JSON.stringify([message]));
  }
  span.end();
}

export function failModelCall(span: Span, error: unknown): void {
  failed(span, error);
  span.end();
}

/** A tool call in a span of its own; a result `{error}` marks the span as failed. */
export function inToolSpan<T extends { output: unknown } | { error: string }>(
  tool: string,
  callId: string | undefined,
  input: unknown,
  work: () => Promise<T>,
): Promise<T> {
  const attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.type': 'function',
    ...(callId && { 'gen_ai.tool.call.id': callId }),
  };
  return inSpan(`execute_tool ${tool}`, attributes, async (span) => {
    const capture = span.isRecording() && capturesContent(span);
    if (capture) span.setAttribute('gen_ai.tool.call.arguments', JSON.stringify(input ?? null));
    const result = await work();
    if ('error' in result) failed(span, new Error(result.error));
    else if (capture) span.setAttribute('gen_ai.tool.call.result', JSON.stringify(result.output ?? null));
    return result;
  });
}

export { context };
