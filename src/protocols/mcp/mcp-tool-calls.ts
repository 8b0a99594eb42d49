import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../agents/agent';
import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { AgentRuns } from '../../agents/agent-runs.port';
import { CancelAgentRunCommand } from '../../agents/cancel-agent-run/cancel-agent-run.command';
import { RunAgentDto } from '../../agents/run-agent/run-agent.dto';
import { DomainError } from '../../domain/decider';
import { RunSource, isEnded } from '../../domain/run';
import { validateAs } from '../../http/validate-as';
import { RunFeed } from '../../live/run-feed';
import { StreamWatch } from '../../live/stream-watch';
import { ValidationFailed } from '../../shared/validation-failed';
import { CancelWorkflowRunCommand } from '../../workflows/cancel-workflow-run/cancel-workflow-run.command';
import { WorkflowsReadModel } from '../../workflows/queries/workflows.read-model';
import { TriggerWorkflowCommand } from '../../workflows/trigger-workflow/trigger-workflow.command';
import { Workflow } from '../../workflows/workflow/workflow.state';
import { WorkflowRun } from '../../workflows/workflow-run/workflow-run.state';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import type { McpEntry } from './mcp-catalogue';
import { ProgressReporter } from './progress-reporter';

/** A call waits for its run to end (runs end by RUN_TIMEOUT_MS), for a person's decision, or for its cancellation. */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;
const NOT_AN_ARGUMENT = 'is not an argument of this tool';

/** What a tool call comes with: its session, its cancellation, and, when the client asked for it, its progress. */
export interface McpCall {
  sessionId: string;
  signal: AbortSignal;
  /** Absent when the client sent no progress token. */
  progress?: (progress: number, message: string, total?: number) => Promise<void>;
}

/**
 * A tool call of the MCP server is a run: an agent's on the task, or a workflow's on the input. The call answers
 * once the run has ended, with its output (and, for an agent with an object `outputSchema`, its `outputObject`);
 * a run that fails, is cancelled or waits for a person's approval is a tool result with `isError: true`.
 */
@Injectable()
export class McpToolCalls {
  constructor(
    private readonly agentRuns: AgentRuns,
    private readonly commands: CommandBus,
    private readonly watch: StreamWatch,
    private readonly feed: RunFeed,
    private readonly workflows: WorkflowsReadModel,
  ) {}

  async call(entry: McpEntry, args: Record<string, unknown>, call: McpCall): Promise<CallToolResult> {
    try {
      return entry.kind === 'agent'
        ? await this.runAgent(entry.agent, args, call)
        : await this.runWorkflow(entry.workflow, args, call);
    } catch (error) {
      if (error instanceof ValidationFailed) {
        const details = error.errors.map(({ path, message }) => `${path.replace(/^body\.?/, '') || '.'}: ${message}`);
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${entry.tool.name}: ${details.join('; ')}`);
      }
      // A refusal of the run (an archived agent, a thread of another agent) is the tool's answer, not the protocol's.
      if (error instanceof DomainError) return failed(error.message);
      throw error;
    }
  }

  private async runAgent(agent: Agent, args: Record<string, unknown>, call: McpCall): Promise<CallToolResult> {
    // The arguments the tool declares: a task, its context and a thread; the answer's schema is the agent's.
    if ('outputSchema' in args) throw new ValidationFailed([{ path: 'outputSchema', message: NOT_AN_ARGUMENT }]);
    const task = validateAs(RunAgentDto, args);
    const source: RunSource = { protocol: 'mcp', sessionId: call.sessionId };
    const queued = await this.agentRuns.queue(task, () => ({ agentId: agent.id, threadId: task.threadId, source }));
    const meta = { runId: queued.id, agentId: agent.id };
    const cancel = () => this.commands.execute(new CancelAgentRunCommand(agent.id, queued.id)).catch(() => undefined);
    const reporter = call.progress && new ProgressReporter(call.progress);
    const following = reporter && this.feed.follow(queued.id, (text) => reporter.text(text));
    if (following) reporter!.text(following.soFar);
    try {
      const run = await this.untilEnded(call.signal, cancel, () => this.agentRuns.settled(queued, LONGEST_WAIT_MS));
      return { ...agentResult(run, agent), _meta: meta };
    } finally {
      following?.stop();
    }
  }

  private async runWorkflow(workflow: Workflow, args: Record<string, unknown>, call: McpCall): Promise<CallToolResult> {
    // With an input schema, the arguments are the input (the tool's schema is the workflow's); else `{input}`.
    const input = workflow.inputSchema ? args : inputOf(args);
    const command = new TriggerWorkflowCommand(workflow.id, input);
    command.source = { protocol: 'mcp', sessionId: call.sessionId };
    const queued: WorkflowRun = await this.commands.execute(command);
    const meta = { runId: queued.id, workflowId: workflow.id };
    const cancel = () =>
      this.commands.execute(new CancelWorkflowRunCommand(workflow.id, queued.id)).catch(() => undefined);
    const current = () => this.workflows.getRun(workflow.id, queued.id) ?? queued;
    const progress = call.progress;
    // Progress only grows, as the protocol has it: a notification each time another step has ended.
    let told = 0;
    const stopProgress =
      progress &&
      this.watch.watch(workflowRunStream(queued.id), () => {
        const { steps } = current();
        const done = steps.filter((step) => step.status === 'skipped' || isEnded(step.status as never));
        if (done.length <= told) return;
        told = done.length;
        const last = done[done.length - 1];
        void progress(done.length, `step ${last.id}: ${last.status}`, steps.length).catch(() => undefined);
      });
    try {
      const run = await this.untilEnded(call.signal, cancel, async () => {
        return (await this.watch.runEnding(workflowRunStream(queued.id), current, LONGEST_WAIT_MS, () => true)).run;
      });
      return { ...workflowResult(run), _meta: meta };
    } finally {
      stopProgress?.();
    }
  }

  /** The run once `ending` settles; a cancelled call cancels the run first (the client hears no answer). */
  private async untilEnded<Run>(
    signal: AbortSignal,
    cancel: () => Promise<unknown>,
    ending: () => Promise<Run>,
  ): Promise<Run> {
    const onAbort = () => void cancel();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await ending();
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function inputOf(args: Record<string, unknown>): Record<string, unknown> {
  const { input = {}, ...rest } = args;
  const unknown = Object.keys(rest);
  const errors = unknown.map((name) => ({ path: name, message: NOT_AN_ARGUMENT }));
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    errors.push({ path: 'input', message: 'input must be an object' });
  if (errors.length) throw new ValidationFailed(errors);
  return input as Record<string, unknown>;
}

function agentResult(run: AgentRun, agent: Agent): CallToolResult {
  if (run.status === 'succeeded') {
    const text = run.output ?? '';
    const structured = agent.outputSchema?.type === 'object' && isObject(run.outputObject);
    return {
      content: [{ type: 'text', text: structured && !text ? JSON.stringify(run.outputObject) : text }],
      ...(structured && { structuredContent: run.outputObject as Record<string, unknown> }),
    };
  }
  if (run.status === 'waiting') {
    const tools = run.pendingApprovals.map((approval) => approval.tool).join(', ');
    return failed(
      `Run ${run.id} waits for a person to approve ${tools || 'a tool call'}: decide it in the console or with ` +
        `POST /v1/agents/${run.agentId}/runs/${run.id}/approvals; the run then goes on, and ` +
        `GET /v1/agents/${run.agentId}/runs/${run.id} shows its answer.`,
    );
  }
  return endedWithout(run);
}

function workflowResult(run: WorkflowRun): CallToolResult {
  if (run.status === 'succeeded') return { content: [{ type: 'text', text: run.output ?? '' }] };
  if (run.status === 'waiting')
    return failed(
      `Run ${run.id} waits for a person's approval: decide it in the console or through ` +
        `/v1/workflows/${run.workflowId}/runs/${run.id}; GET it for its output once it has ended.`,
    );
  return endedWithout(run);
}

function endedWithout(run: { id: string; status: string; error: { code: string; message: string } | null }) {
  if (run.status === 'failed') return failed(`Run ${run.id} failed (${run.error?.code}): ${run.error?.message}`);
  if (run.status === 'cancelled') return failed(`Run ${run.id} was cancelled`);
  return failed(`Run ${run.id} has not ended (${run.status}); the service is stopping`);
}

function failed(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
