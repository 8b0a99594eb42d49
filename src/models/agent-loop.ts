import { jsonSchema, stepCountIs, streamText, tool, type JSONSchema7, type LanguageModelUsage, type ToolSet } from 'ai';
import type { RunnableTool } from '../tools/tool';
import type { ModelProviders } from './model-providers';
import { errorMessage, toModelRunError } from './provider-errors';

export interface AgentLoopRequest {
  /** `provider/model`. */
  model: string;
  instructions: string;
  task: string;
  context: Record<string, unknown>;
  tools: RunnableTool[];
  maxSteps: number;
  /** Cancel and the time limit share it; its reason says which fired. */
  signal: AbortSignal;
}

export interface AgentLoopObserver {
  /** Text as the model writes it. */
  delta(text: string): void;
  /** Awaited before the tool runs; `tool` is the tool's id, not its model name. */
  toolCalled(call: { id: string; tool: string; input: unknown }): Promise<void>;
  /** Awaited before the result goes back to the model. */
  toolReturned(result: { id: string; tool: string; output?: unknown; error?: string }): Promise<void>;
}

export interface AgentLoopResult {
  /** The text of the last step. */
  output: string;
  /** Summed over all steps. */
  usage: { inputTokens: number; outputTokens: number };
  /** HTTP requests sent to the provider over all steps, retries included. */
  attempts: number;
}

/**
 * Runs the model with the agent's tools until it answers without calling a tool or `maxSteps` is reached.
 * A tool that fails is an error result for the model. Throws `ModelRunError` when the model call fails or the
 * signal fires; an error thrown by the observer is rethrown as it is (the run could not be recorded).
 * Error texts of the provider and the tools pass through the providers' redaction before anyone sees them.
 */
export async function runAgentLoop(
  request: AgentLoopRequest,
  observer: AgentLoopObserver,
  providers: ModelProviders,
): Promise<AgentLoopResult> {
  const opened = providers.open(request.model);
  const observerFailed = new AbortController();
  let observerError: { error: unknown } | undefined;
  const observe = async (report: () => Promise<void>) => {
    try {
      await report();
    } catch (error) {
      observerError ??= { error };
      observerFailed.abort(error);
      throw error;
    }
  };
  const signal = AbortSignal.any([request.signal, observerFailed.signal]);
  const redact = (text: string) => providers.redaction.apply(text);

  let output = '';
  let stepText = '';
  let usage = { inputTokens: 0, outputTokens: 0 };
  let streamError: { error: unknown } | undefined;
  let finished = false;
  const toolsById = new Map(request.tools.map((t) => [t.modelName, t.id]));
  const executed = new Set<string>();

  try {
    const result = opened.counting(() =>
      streamText({
        model: opened.model,
        system: request.instructions,
        messages: [{ role: 'user', content: userMessage(request.task, request.context) }],
        tools: toolSet(request.tools, observer, observe, executed, redact),
        stopWhen: stepCountIs(request.maxSteps),
        abortSignal: signal,
        maxRetries: 0,
        onError: () => undefined, // errors are read from the stream below (the default logs them)
      }),
    );
    for await (const part of opened.counting(() => result.fullStream)) {
      if (part.type === 'start-step') stepText = '';
      else if (part.type === 'text-delta') {
        stepText += part.text;
        await observe(async () => observer.delta(part.text));
      } else if (part.type === 'finish-step') output = stepText;
      else if (part.type === 'finish') {
        usage = totals(part.totalUsage);
        finished = true;
      } else if (part.type === 'error') {
        streamError = { error: part.error };
        break;
      } else if (part.type === 'tool-error' && !executed.has(part.toolCallId)) {
        // A call the SDK refused (unknown tool, unparsable input): the model gets the error; record it too.
        const call = { id: part.toolCallId, tool: toolsById.get(part.toolName) ?? part.toolName };
        await observe(() => observer.toolCalled({ ...call, input: part.input }));
        await observe(() => observer.toolReturned({ ...call, error: redact(errorMessage(part.error)) }));
      }
    }
  } catch (error) {
    streamError = { error };
  }

  if (observerError) throw observerError.error;
  if (streamError || !finished) {
    // Without an error part, a stream that did not finish was aborted (it ends with an `abort` part).
    const error = toModelRunError(streamError?.error, opened.provider, request.signal);
    error.message = redact(error.message);
    error.attempts = opened.attempts();
    throw error;
  }
  return { output, usage, attempts: opened.attempts() };
}

function totals(usage: LanguageModelUsage): AgentLoopResult['usage'] {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

function userMessage(task: string, context: Record<string, unknown>): string {
  if (Object.keys(context).length === 0) return task;
  return `${task}\n\nContext (JSON):\n${JSON.stringify(context, null, 2)}`;
}

type Observe = (report: () => Promise<void>) => Promise<void>;

/** The tools keyed by the name the model sees; each call is reported before it runs and before its result goes back. */
function toolSet(
  tools: RunnableTool[],
  observer: AgentLoopObserver,
  observe: Observe,
  executed: Set<string>,
  redact: (text: string) => string,
): ToolSet {
  const set: ToolSet = {};
  for (const runnable of tools) {
    set[runnable.modelName] = tool<unknown, unknown>({
      description: runnable.description,
      inputSchema: jsonSchema(runnable.inputSchema as JSONSchema7),
      execute: async (input, { toolCallId, abortSignal }) => {
        executed.add(toolCallId);
        const call = { id: toolCallId, tool: runnable.id };
        await observe(() => observer.toolCalled({ ...call, input }));
        const result = await runTool(runnable, input, abortSignal, redact);
        await observe(() => observer.toolReturned({ ...call, ...result }));
        return 'error' in result ? { error: result.error } : result.output;
      },
    });
  }
  return set;
}

async function runTool(
  runnable: RunnableTool,
  input: unknown,
  signal: AbortSignal | undefined,
  redact: (text: string) => string,
): Promise<{ output: unknown } | { error: string }> {
  try {
    const output = await runnable.execute(input, { signal: signal ?? new AbortController().signal });
    return { output: output ?? null };
  } catch (error) {
    return { error: redact(errorMessage(error)) };
  }
}
