import type { ModelMessage } from 'ai';
import type { ActorRegistry } from '../../actors/actor-registry';
import { Agent, agentDecider, agentStream, needsApproval } from '../../agents/agent';
import type { AgentRunCommand } from '../../agents/agent-run/agent-run.commands';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { ModelAttempt } from '../../domain/run';
import type { RunStreaming } from '../../config/run-settings';
import type { RunFeed } from '../../live/run-feed';
import type { ModelProviders } from '../../models/model-providers';
import type { RunnableTool } from '../../tools/tool';
import type { AgentLoopResult } from '../agent-loop/agent-loop';
import { handoffMessages } from '../agent-loop/handoff-messages';
import type { ChildRuns } from '../agent-tree/child-runs';
import type { RunTools } from '../agent-tree/run-tools';
import { RunGuardrails } from '../guardrails/run-guardrails';
import type { Judge } from '../../agents/guardrail-checks/run-checks';
import { HandoffFailed } from './run-outcome';
import type { RecordedCalls } from '../agent-loop/recorded-calls';
import { MemoryToolsDeps, memoryTools } from './memory-tools';

type AgentLoopModule = typeof import('../agent-loop/agent-loop');

export interface AgentTurnsDeps extends MemoryToolsDeps {
  actors: ActorRegistry;
  tools: RunTools;
  childRuns: ChildRuns;
  providers: ModelProviders;
  feed: RunFeed;
  executorId: string;
  maxHandoffs: number;
  /** RUN_STREAMING: when the model calls stream their answers. */
  streaming: RunStreaming;
  /** Asks the judges of the agents' `{type: "agent"}` guardrail checks. */
  judge: Judge;
  /** A trial's recorded run, whose tool results its calls get back. */
  recorded?: RecordedCalls;
}

/** One agent's part in a run: its tools (with the names its model sees them by) and its guardrails. */
export interface AgentTurn {
  agent: Agent;
  tools: RunnableTool[];
  modelNames: Map<string, string>;
  guard: RunGuardrails;
}

/** Where a turn begins: the task (checked by the guardrails), and the messages before it or in its place. */
export interface TurnStart {
  task: string;
  context: Record<string, unknown>;
  history: ModelMessage[];
  resume?: ModelMessage[];
}

/** The last agent's loop result, and what every agent of the run called, added up. */
export interface TurnsResult {
  result: AgentLoopResult;
  turn: AgentTurn;
  attempts: number;
  modelAttempts: ModelAttempt[];
}

/**
 * The agents' turns of one run: the first agent's loop, then, each time its model calls a `transfer_to_<name>` tool,
 * the loop of the agent handed to, sent what the handoff's `input` says (recorded as `AgentRunHandedOff`), until an
 * agent answers, waits, or the run has handed off `RUN_MAX_HANDOFFS` times (a transfer is then a tool error).
 */
export class AgentTurns {
  constructor(
    private readonly agentRun: AgentRunAggregate,
    private readonly deps: AgentTurnsDeps,
    private readonly record: (command: AgentRunCommand) => Promise<void>,
    private readonly signal: AbortSignal,
  ) {}

  prepare(agent: Agent): AgentTurn {
    const tools = [...this.deps.tools.forAgent(agent).tools, ...memoryTools(agent, this.agentRun, this.deps)];
    const modelNames = new Map(tools.map((t) => [t.id, t.modelName]));
    const guard = new RunGuardrails(
      agent.guardrails ?? {},
      (verdict, callId) =>
        this.record({ type: 'RecordGuardrailVerdict', executorId: this.deps.executorId, verdict, callId }),
      this.deps.judge,
    );
    return { agent, tools, modelNames, guard };
  }

  /** Takes the run's turns from `first`, on `start`: see the class. */
  async take(first: AgentTurn, start: TurnStart, loop: AgentLoopModule): Promise<TurnsResult> {
    let turn = first;
    let from = start;
    let handoffs = this.agentRun.handoffs?.length ?? 0;
    let attempts = 0;
    const modelAttempts: ModelAttempt[] = [];
    for (;;) {
      const result = await loop.runAgentLoop(
        this.request(turn, from, handoffs),
        this.observer(turn),
        this.deps.providers,
      );
      attempts += result.attempts;
      modelAttempts.push(...result.modelAttempts);
      if (!result.handoff) return { result, turn, attempts, modelAttempts };
      const { handoff } = result;
      const next = await this.deps.actors.of(agentStream(handoff.agentId), agentDecider).read();
      if (!next || next.status === 'archived') throw new HandoffFailed(handoff.name);
      const messages = handoffMessages(handoff, this.agentRun, turn.agent.name);
      await this.record({
        type: 'HandOff',
        executorId: this.deps.executorId,
        callId: handoff.toolCallId,
        handoff: {
          from: turn.agent.id,
          fromName: turn.agent.name,
          to: next.id,
          toName: next.name,
          input: handoff.input,
        },
        messages,
      });
      turn = this.prepare(next);
      from = { task: this.agentRun.task, context: this.agentRun.context, history: [], resume: messages };
      handoffs++;
    }
  }

  private request({ agent, tools, guard }: AgentTurn, start: TurnStart, handoffs: number) {
    const max = this.deps.maxHandoffs;
    return {
      model: agent.id === this.agentRun.agentId ? this.agentRun.model || agent.model : agent.model,
      fallbackModels: agent.fallbackModels,
      instructions: agent.instructions,
      ...start,
      tools,
      maxSteps: agent.maxSteps,
      outputSchema: this.agentRun.outputSchema ?? agent.outputSchema,
      needsApproval: (toolId: string) => needsApproval(agent.approvalRequired, toolId),
      checkToolResult: (callId: string, ran: Parameters<RunGuardrails['toolResult']>[1]) =>
        guard.toolResult(callId, ran),
      childRunRefusal: this.deps.childRuns.refusalAt(this.agentRun.depth ?? 0),
      ...(handoffs >= max && {
        handoffRefusal: `handoffs_exceeded: a run may hand off at most ${max} times (RUN_MAX_HANDOFFS); answer yourself`,
      }),
      recorded: this.deps.recorded,
      signal: this.signal,
      streams: () => this.streams(guard),
    };
  }

  /**
   * With RUN_STREAMING=watched, a model call streams only while someone follows the run, or when a cancel would keep
   * what it had written (a thread's turn, for `interrupt`); an answer the guardrails hold is shown once checked.
   */
  private streams(guard: AgentTurn['guard']): boolean {
    if (this.deps.streaming === 'always') return true;
    return !guard.holdsOutput && (!!this.agentRun.threadId || this.deps.feed.has(this.agentRun.id));
  }

  private observer({ guard }: AgentTurn) {
    const { executorId, feed } = this.deps;
    const runId = this.agentRun.id;
    return {
      // An answer the guardrails may block or redact is shown once checked, not as it is written.
      delta: (text: string) => (guard.holdsOutput ? undefined : feed.publish(runId, text)),
      toolCalled: ({ id, tool, input }: { id: string; tool: string; input: unknown }) =>
        this.record({ type: 'RecordToolCall', executorId, callId: id, tool, input }),
      toolReturned: ({
        id,
        ...result
      }: {
        id: string;
        tool: string;
        output?: unknown;
        error?: string;
        replayed?: boolean;
      }) => this.record({ type: 'RecordToolResult', executorId, callId: id, ...result }),
    };
  }
}
