import {
  Output,
  generateText,
  jsonSchema,
  stepCountIs,
  streamText,
  type JSONSchema7,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import { taskMessage } from '../../agents/agent-run/task-message';
import {
  ApprovalCall,
  ChildRunCall,
  HandoffCall,
  PausedCalls,
  ToolObserver,
  ToolSetOptions,
  toolSet,
} from './tool-set';
import type { ModelProviders } from '../../models/model-providers';
import { ModelRunError } from '../../models/model-run-error';
import type { ModelAttempt } from '../../domain/run';
import { ModelChain } from './model-chain';
import { errorMessage, toModelRunError } from '../../models/provider-errors';
import { OutputInvalid, checkAnswer, repairMessage } from './structured-answer';
import { endModelCall, failModelCall, startModelCall } from '../../models/gen-ai-spans';
import type { Span } from '@opentelemetry/api';
import { orderSince, yieldIfTurnIsLong } from '../../shared/turn-budget';
import { performance } from 'node:perf_hooks';

/** The turn order of a model call about to start: before the parts of answers being read. */
const STARTS_FIRST = -1;

export interface AgentLoopRequest extends ToolSetOptions {
  /** `provider/model`. */
  model: string;
  /** Models to make a call again on, in order, when a call fails in a way that is the provider's fault. */
  fallbackModels?: string[];
  instructions: string;
  task: string;
  context: Record<string, unknown>;
  maxSteps: number;
  /** Cancel and the time limit share it; its reason says which fired. */
  signal: AbortSignal;
  /** The JSON Schema the answer must match: asked for as structured output, checked, repaired once. */
  outputSchema?: Record<string, unknown> | null;
  /** Earlier messages (a thread's), sent before the task. */
  history?: ModelMessage[];
  /** A run resumed after a decision: its conversation so far (the task, calls and results), instead of the task. */
  resume?: ModelMessage[];
  /**
   * Whether the text must be told as the model writes it (someone follows the run, or a cancel keeps what it had
   * written), asked at each model call. When not, the call is made without streaming, which costs less, and each
   * step's text is told whole at its end. Absent: always streamed.
   */
  streams?: () => boolean;
}

export interface AgentLoopObserver extends ToolObserver {
  /** Text as the model writes it. */
  delta(text: string): void;
}

export interface AgentLoopResult {
  /** The text of the last step. */
  output: string;
  /** With `outputSchema`: the answer parsed, valid against it. */
  outputObject?: unknown;
  /** Calls that wait for a person's approval: the run waits rather than ends. */
  waitingFor?: ApprovalCall[];
  /** Calls of other agents: each starts a child run, and the run waits for them. */
  childCalls?: ChildRunCall[];
  /** A call of a `transfer_to_<name>` tool: the run goes on with that agent; `conversation` is every message so far. */
  handoff?: HandoffCall & { conversation: ModelMessage[] };
  /** Summed over all steps. */
  usage: { inputTokens: number; outputTokens: number };
  /** HTTP requests sent to the providers over all steps, retries included. */
  attempts: number;
  /** Each model called, in order: the agent's model, then the fallbacks it went on to. */
  modelAttempts: ModelAttempt[];
  /** The model whose answer this is. */
  answeredModel: string;
}

/**
 * Runs the model with the agent's tools until it answers without calling a tool or `maxSteps` is reached. With
 * `outputSchema`, the answer must be JSON matching it: one repair turn, then `OutputInvalid`. A call that fails by the
 * provider's fault is made again on the next of `fallbackModels`, with the same messages: the steps already done
 * (tool calls included) are kept, not made again.
 * A tool that fails is an error result for the model. Throws `ModelRunError` when the model call fails or the
 * signal fires; an error thrown by the observer is rethrown as it is (the run could not be recorded).
 * Error texts of the provider and the tools pass through the providers' redaction before anyone sees them.
 */
export async function runAgentLoop(
  request: AgentLoopRequest,
  observer: AgentLoopObserver,
  providers: ModelProviders,
): Promise<AgentLoopResult> {
  const chain = new ModelChain([request.model, ...(request.fallbackModels ?? [])], providers);
  try {
    return await loop(request, observer, providers, chain);
  } catch (error) {
    if (error instanceof ModelRunError) {
      error.attempts = chain.attempts();
      error.modelAttempts = chain.attemptsMade();
    }
    throw error;
  } finally {
    chain.close();
  }
}

/** What a model call had done when it failed: the steps it finished, which the next model goes on from. */
interface CallProgress {
  messages: ModelMessage[];
  steps: number;
  usage: AgentLoopResult['usage'];
}

async function loop(
  request: AgentLoopRequest,
  observer: AgentLoopObserver,
  providers: ModelProviders,
  chain: ModelChain,
): Promise<AgentLoopResult> {
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
  const toolsById = new Map(request.tools.map((t) => [t.modelName, t.id]));
  const executed = new Set<string>();
  const schema = request.outputSchema ?? undefined;
  const paused: PausedCalls = { approvals: [], children: [] };
  const pausing = () => paused.approvals.length + paused.children.length > 0 || paused.handoff !== undefined;

  /**
   * One call of the model, with its tool loop when `tools` is set; `keepResponse`: with its response messages (for a
   * repair turn after it), which the SDK gives by reading its stream once more.
   */
  const turn = async (
    messages: ModelMessage[],
    tools: ToolSet | undefined,
    maxSteps: number,
    keepResponse: boolean,
    progress: CallProgress,
  ) => {
    let output = '';
    let stepText = '';
    let usage = { inputTokens: 0, outputTokens: 0 };
    let streamError: { error: unknown } | undefined;
    let finished = false;
    let responseMessages: ModelMessage[] = [];
    // Many runs start, and their answers stream in, together: each call and each part takes its turn (before the
    // call's span opens, so that the span does not count the wait). A call about to start goes first (its slot is
    // idle until then); then the parts of the calls that started first, so that runs end, and free their slots,
    // one after the other rather than all at the end.
    await yieldIfTurnIsLong(STARTS_FIRST);
    const opened = chain.current();
    const modelId = chain.id;
    const callStarted = performance.now();
    // A model call's span opens with its request (one that fails before it streams has its span too).
    let modelCall: Span | undefined = startModelCall(modelId, () => ({
      instructions: request.instructions,
      messages,
    }));
    // What the call reports, read from its stream or, when it is not streamed, from each step as it ends.
    const stepStarted = () => {
      stepText = '';
      modelCall ??= startModelCall(modelId, () => ({ instructions: request.instructions, messages }));
    };
    const written = (text: string) => {
      stepText += text;
      return observe(async () => observer.delta(text));
    };
    const stepEnded = (step: Omit<Parameters<typeof endModelCall>[1], 'text'> & { usage: LanguageModelUsage }) => {
      output = stepText;
      progress.usage = sum(progress.usage, totals(step.usage));
      if (modelCall) endModelCall(modelCall, { ...step, text: stepText });
      modelCall = undefined;
    };
    // The messages of the steps done so far (the SDK gives them all, each time), for a fallback to go on from.
    const stepDone = (step: { response: { messages: ModelMessage[] } }) => {
      progress.messages = [...step.response.messages];
      progress.steps++;
    };
    // A call the SDK refused (unknown tool, unparsable input): the model gets the error; record it too.
    const refused = async (part: { toolCallId: string; toolName: string; input: unknown; error: unknown }) => {
      if (executed.has(part.toolCallId)) return;
      const call = { id: part.toolCallId, tool: toolsById.get(part.toolName) ?? part.toolName };
      await observe(() => observer.toolCalled({ ...call, input: part.input }));
      await observe(() => observer.toolReturned({ ...call, error: redact(errorMessage(part.error)) }));
    };
    const settings = {
      model: opened.model,
      headers: opened.headers,
      system: request.instructions,
      messages,
      // The only system messages among them are the service's own (the memory a run recalled, see memory-recall.ts):
      // a thread's messages are the user's, the model's and the tools'.
      allowSystemInMessages: true,
      tools,
      ...(schema && { output: Output.object({ schema: jsonSchema(schema as JSONSchema7) }) }),
      stopWhen: [stepCountIs(maxSteps), pausing],
      abortSignal: signal,
      maxRetries: 0,
    };
    try {
      if (request.streams && !request.streams()) {
        // No one reads the text as it is written: one answer per step, without the streams' cost.
        const result = await generateText({
          ...settings,
          // The answer is checked below (checkAnswer, with one repair turn), not by the SDK, which would throw.
          ...(settings.output && { output: { ...settings.output, parseCompleteOutput: async () => undefined } }),
          prepareStep: () => void stepStarted(),
          onStepFinish: async (step) => {
            stepDone(step);
            const later = yieldIfTurnIsLong(orderSince(callStarted));
            if (later) await later;
            for (const part of step.content) if (part.type === 'tool-error') await refused(part);
            if (step.text) await written(step.text);
            stepEnded(step);
          },
        });
        usage = totals(result.totalUsage);
        finished = true;
        if (keepResponse) responseMessages = result.response.messages;
      } else {
        const result = streamText({
          ...settings,
          onError: () => undefined, // errors are read from the stream below (the default logs them)
          onStepFinish: stepDone,
        });
        for await (const part of result.fullStream) {
          const later = yieldIfTurnIsLong(orderSince(callStarted));
          if (later) await later;
          if (part.type === 'start-step') stepStarted();
          else if (part.type === 'text-delta') await written(part.text);
          else if (part.type === 'finish-step') stepEnded(part);
          else if (part.type === 'finish') {
            usage = totals(part.totalUsage);
            finished = true;
          } else if (part.type === 'error') {
            streamError = { error: part.error };
            break;
          } else if (part.type === 'tool-error') await refused(part);
        }
        if (keepResponse && finished && !streamError) responseMessages = (await result.response).messages;
      }
    } catch (error) {
      streamError = { error };
    }
    if (modelCall) failModelCall(modelCall, streamError?.error ?? observerError?.error ?? new Error('aborted'));
    if (observerError) throw observerError.error;
    if (streamError || !finished) {
      // Without an error part, a stream that did not finish was aborted (it ends with an `abort` part).
      const error = toModelRunError(streamError?.error, opened.provider, request.signal);
      error.message = redact(error.message);
      throw error;
    }
    return { output, usage, responseMessages };
  };

  /**
   * A model call, made again on the next fallback model when it fails by the provider's fault: with the messages of
   * the steps the failed call finished, and the steps left of `maxSteps`. Each model's tokens are counted to it.
   */
  const call = async (messages: ModelMessage[], tools: ToolSet | undefined, maxSteps: number, keepResponse = false) => {
    const carried: ModelMessage[] = [];
    let usage = { inputTokens: 0, outputTokens: 0 };
    let stepsLeft = maxSteps;
    for (;;) {
      const progress: CallProgress = { messages: [], steps: 0, usage: { inputTokens: 0, outputTokens: 0 } };
      try {
        const done = await turn([...messages, ...carried], tools, stepsLeft, keepResponse, progress);
        chain.spent(done.usage);
        return {
          output: done.output,
          usage: sum(usage, done.usage),
          responseMessages: [...carried, ...done.responseMessages],
          stepMessages: [...carried, ...progress.messages],
        };
      } catch (error) {
        chain.spent(progress.usage);
        const wrapped = error instanceof ModelRunError ? error : undefined;
        if (!wrapped || observerError || stepsLeft - progress.steps < 1 || !chain.failed(wrapped)) throw error;
        carried.push(...progress.messages);
        usage = sum(usage, progress.usage);
        stepsLeft -= progress.steps;
      }
    }
  };

  const messages: ModelMessage[] = [
    ...(request.history ?? []),
    ...(request.resume ?? [{ role: 'user', content: taskMessage(request.task, request.context) }]),
  ];
  const tools = toolSet(request, observer, observe, executed, redact, paused);
  const first = await call(messages, tools, request.maxSteps, !!schema);
  const record = () => ({ attempts: chain.attempts(), modelAttempts: chain.attemptsMade(), answeredModel: chain.id });
  const { approvals: waitingFor, children: childCalls, handoff } = paused;
  if (waitingFor.length || childCalls.length) {
    // Calls that wait come first: a handoff in the same step is not made (the model may ask for it again).
    return { output: first.output, usage: first.usage, ...record(), waitingFor, childCalls };
  }
  if (handoff) {
    const conversation = [...messages, ...first.stepMessages];
    return { output: first.output, usage: first.usage, ...record(), handoff: { ...handoff, conversation } };
  }
  if (!schema) return { output: first.output, usage: first.usage, ...record() };

  let checked = await checkAnswer(schema, first.output);
  let { output, usage } = first;
  if ('errors' in checked) {
    // One repair turn: the model sees its answer and what is wrong with it, and answers again (without tools).
    const repair = await call(
      [...messages, ...first.responseMessages, { role: 'user', content: repairMessage(checked.errors) }],
      undefined,
      1,
    );
    output = repair.output;
    usage = sum(usage, repair.usage);
    checked = await checkAnswer(schema, output);
  }
  if ('errors' in checked) throw new OutputInvalid(checked.errors);
  return { output, outputObject: checked.value, usage, ...record() };
}

function sum(a: AgentLoopResult['usage'], b: AgentLoopResult['usage']): AgentLoopResult['usage'] {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

function totals(usage: LanguageModelUsage): AgentLoopResult['usage'] {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

export { runTool, type ToolResult } from './tool-set';
