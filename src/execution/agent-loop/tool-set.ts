import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { RunnableTool } from '../../tools/tool';
import { errorMessage } from '../../models/provider-errors';
import { inToolSpan } from '../../models/gen-ai-spans';
import { currentTraceparent } from '../../shared/trace-context';

export type ToolResult = { output: unknown } | { error: string };

/** Results an earlier run's calls got, given back for the same calls (an experiment's recorded trial). */
export interface RecordedResults {
  /** The result of a recorded call of `tool` with `input` not given back yet, which is then used; else undefined. */
  take(tool: string, input: unknown): ToolResult | undefined;
}

/** A call the loop does not answer itself: it waits for a person's decision. */
export interface ApprovalCall {
  toolCallId: string;
  tool: string;
  args: unknown;
}

/** A call of another agent: it starts a child run, whose end is the call's result. */
export interface ChildRunCall {
  toolCallId: string;
  /** `agent:<name>`. */
  tool: string;
  agentId: string;
  input: { task: string; context?: Record<string, unknown> };
  /** The `execute_tool` span of the call: the child's run continues it. */
  traceparent?: string;
}

/** A call of a `transfer_to_<name>` tool: the conversation goes on with that agent. */
export interface HandoffCall {
  toolCallId: string;
  agentId: string;
  name: string;
  input: 'all' | 'last_user' | 'summary';
  /** With `input: "summary"`: what the handing-off model wrote of the conversation so far. */
  summary?: string;
}

/**
 * The calls of a step that make the loop stop after it: the run waits for the approvals and children, holding
 * nothing, or goes on with the agent handed to.
 */
export interface PausedCalls {
  approvals: ApprovalCall[];
  children: ChildRunCall[];
  handoff?: HandoffCall;
}

/** What the tools of a run are, and what their calls go through. */
export interface ToolSetOptions {
  tools: RunnableTool[];
  /** Tools whose calls wait for a person: the loop stops after the step that calls them. */
  needsApproval?: (toolId: string) => boolean;
  /** A tool's result as the model is to get it (the agent's guardrails), before it is recorded. */
  checkToolResult?: (callId: string, result: ToolResult) => Promise<ToolResult>;
  /** Set when a call of an agent tool may not start a child run (too deep): the error the model gets instead. */
  childRunRefusal?: string;
  /** Set when the run may not hand off again (`RUN_MAX_HANDOFFS`): the error a transfer gets instead. */
  handoffRefusal?: string;
  /** A trial's recorded run: a call it made gets its result instead of running the tool. */
  recorded?: RecordedResults;
}

/** Told of each call; an error it throws stops the loop (the run could not be recorded). */
export interface ToolObserver {
  /** Awaited before the tool runs; `tool` is the tool's id, not its model name. */
  toolCalled(call: { id: string; tool: string; input: unknown }): Promise<void>;
  /** Awaited before the result goes back to the model. */
  toolReturned(result: {
    id: string;
    tool: string;
    output?: unknown;
    error?: string;
    replayed?: boolean;
  }): Promise<void>;
}

type Observe = (report: () => Promise<void>) => Promise<void>;

/**
 * The tools keyed by the name the model sees; each call is reported before it runs and before its result goes back.
 * A call that waits for a person, or that starts another agent's run, is not answered here: it is added to `paused`.
 */
export function toolSet(
  { tools, needsApproval, checkToolResult, childRunRefusal, handoffRefusal, recorded }: ToolSetOptions,
  observer: ToolObserver,
  observe: Observe,
  executed: Set<string>,
  redact: (text: string) => string,
  paused: PausedCalls,
): ToolSet {
  const set: ToolSet = {};
  for (const runnable of tools) {
    set[runnable.modelName] = tool<unknown, unknown>({
      description: runnable.description,
      inputSchema: jsonSchema(runnable.inputSchema as JSONSchema7),
      execute: async (input, { toolCallId, abortSignal }) => {
        executed.add(toolCallId);
        const call = { id: toolCallId, tool: runnable.id };
        if (runnable.handoff) {
          // Not a tool call of the run: the handoff is recorded as such, once the step is over.
          if (handoffRefusal) return { error: handoffRefusal };
          if (paused.handoff) return { error: `Not transferred: the conversation goes to "${paused.handoff.name}"` };
          const { summary } = (input ?? {}) as { summary?: string };
          const { id: agentId, name, input: sent } = runnable.handoff;
          paused.handoff = { toolCallId, agentId, name, input: sent, ...(summary !== undefined && { summary }) };
          return { transferred_to: name };
        }
        if (runnable.agent) {
          if (childRunRefusal) {
            await observe(() => observer.toolCalled({ ...call, input }));
            await observe(() => observer.toolReturned({ ...call, error: childRunRefusal }));
            return { error: childRunRefusal };
          }
          // Recorded with the children it starts, once the step is over (AgentRunChildRunsStarted), not one by one.
          // The call's span is opened and closed now: the child's run, queued once the step is over, continues it.
          const traceparent = await inToolSpan(runnable.id, toolCallId, input, async () => ({
            output: currentTraceparent(),
          }));
          paused.children.push({
            toolCallId,
            tool: runnable.id,
            agentId: runnable.agent.id,
            input: input as ChildRunCall['input'],
            traceparent: traceparent.output,
          });
          return { pending: 'running as a child run' };
        }
        if (needsApproval?.(runnable.id)) {
          // Not run, nor recorded as called: the loop stops after this step, and the run waits for a person.
          paused.approvals.push({ toolCallId, tool: runnable.id, args: input });
          return { pending: 'waiting for approval' };
        }
        await observe(() => observer.toolCalled({ ...call, input }));
        const replay = recorded?.take(runnable.id, input);
        const ran = replay ?? (await runTool(runnable, input, abortSignal, redact, toolCallId));
        let result = ran;
        await observe(async () => void (result = checkToolResult ? await checkToolResult(toolCallId, ran) : ran));
        const replayed = recorded && { replayed: replay !== undefined };
        await observe(() => observer.toolReturned({ ...call, ...result, ...replayed }));
        return 'error' in result ? { error: result.error } : result.output;
      },
    });
  }
  return set;
}

/** Runs a tool as the loop does: a failure is an error result, its text redacted. */
export async function runTool(
  runnable: RunnableTool,
  input: unknown,
  signal: AbortSignal | undefined,
  redact: (text: string) => string,
  callId?: string,
): Promise<ToolResult> {
  return inToolSpan(runnable.id, callId, input, async () => {
    try {
      const output = await runnable.execute(input, { signal: signal ?? new AbortController().signal });
      return { output: output ?? null };
    } catch (error) {
      return { error: redact(errorMessage(error)) };
    }
  });
}
