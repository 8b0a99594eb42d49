import { Logger } from '@nestjs/common';
import type { RunStreaming } from '../../config/run-settings';
import { ActorRegistry } from '../../actors/actor-registry';
import { Actor, CommandContext } from '../../actors/actor';
import { Agent } from '../../agents/agent';
import { AgentRunAggregate, AgentRunState } from '../../agents/agent-run/agent-run.state';
import { AgentRunCommand, EndAgentRun, RecordRecall, Wait } from '../../agents/agent-run/agent-run.commands';
import { AgentRunEvent, agentRunStream } from '../../agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentNow, agentOf, recordedCallsOf } from './run-agents';
import { DomainError } from '../../domain/decider';
import type { ModelProviders } from '../../models/model-providers';
import { ModelRunError } from '../../models/model-run-error';
import { RunTools } from '../agent-tree/run-tools';
import type { ChildRuns } from '../agent-tree/child-runs';
import { persistently } from '../../actors/persistently';
import type { SendOptions, SendResult } from '../../actors/stream-commands';
import type { ModelMessage } from 'ai';
import { ToolCall } from '../../agents/agent-run/agent-run.state';
import { ModelAttempt } from '../../domain/run';
import { runMessages } from '../agent-loop/run-messages';
import type { ChildRunCall } from '../agent-loop/tool-set';
import type { RunnableTool } from '../../tools/tool';
import { RunFeed } from '../../live/run-feed';
import { ThreadsReadModel } from '../../threads/queries/threads.read-model';
import { memoryWindow } from '../../threads/thread';
import type { ModelPrices } from '../../models/model-prices';
import { runSpanEnded } from './agent-run-span';
import { RunGuardrails } from '../guardrails/run-guardrails';
import { RunTakenAway, RunTimedOut, outcomeOf } from './run-outcome';
import { AgentTurns } from './agent-turns';
import { memoryMessages } from './memory-recall';
import { claimOf } from './run-claim-of';
import type { MemorySearch } from '../../memory/queries/memory-search';
import type { MemoryReadModel } from '../../memory/queries/memory.read-model';
import type { Clock } from '../../shared/clock';
import { GuardrailJudge } from '../guardrails/guardrail-judge';
import type { AgentDirectory } from '../../agents/agent-directory.port';

export interface ExecutionDeps {
  actors: ActorRegistry;
  /** The agents as the read model has them: the judges of guardrails are found by name there. */
  agents: Pick<AgentDirectory, 'activeAgentNamed'>;
  threads: ThreadsReadModel;
  memory: MemoryReadModel;
  memorySearch: MemorySearch;
  clock: Clock;
  tools: RunTools;
  childRuns: ChildRuns;
  maxHandoffs: number;
  /** RUN_STREAMING. */
  streaming: RunStreaming;
  providers: ModelProviders;
  prices: ModelPrices;
  feed: RunFeed;
  logger: Logger;
  executorId: string;
  timeoutMs: number;
  leaseMs: number;
  stopping: () => boolean;
}

/**
 * Executes one queued agent run: claims it, runs the model's tool loop under a signal that cancel and the time
 * limit share, records each tool call and result, renews the lease while it runs, and records how it ended.
 */
export class AgentRunExecution {
  readonly controller = new AbortController();
  private readonly context: CommandContext;
  private readonly actor: Actor<AgentRunState, AgentRunCommand, AgentRunEvent>;
  /** The commit that queues and claims the run here, while it is being made (true once in): appends wait for it. */
  private recorded?: Promise<boolean>;
  /** What the run recalled, to record with its next command (see send). */
  private recall?: RecordRecall;

  constructor(
    readonly runId: string,
    readonly threadId: string | undefined,
    private readonly deps: ExecutionDeps,
  ) {
    // An actor of its own (runs' actors are not cached), held while the run executes.
    this.actor = deps.actors.of(agentRunStream(runId), agentRunDecider);
    this.context = { correlationId: runId, causationId: runId };
  }

  /**
   * Claims the run: false when it is not queued any more (another instance took it, or it was cancelled). Given
   * the stream as its queueing left it, the claim appends on that without reading it; should the stream have
   * moved on, the append conflicts and the claim is decided again on the stream as it is.
   */
  async claim(queued?: {
    run: AgentRunAggregate;
    revision: bigint;
  }): Promise<{ run: AgentRunAggregate; agent: Agent | null } | undefined> {
    if (queued) this.actor.adopt(queued.run, queued.revision);
    const run = queued ? queued.run : await this.actor.read();
    // A claim of ours whose answer was lost (a deadline, with the append done) is still ours.
    if (run?.status === 'running' && run.executorId === this.deps.executorId) {
      return { run, agent: await agentOf(this.deps.actors, run) };
    }
    if (run?.status !== 'queued') return undefined;
    const agent = await agentOf(this.deps.actors, run);
    try {
      await this.send({ type: 'StartAgentRun', ...claimOf(agent, this.deps.executorId, this.deps.tools) });
    } catch (error) {
      if (error instanceof DomainError) return undefined;
      throw error;
    }
    return { run, agent };
  }

  /** The run was queued and claimed here in one commit: the stream as that commit left it. */
  startedHere(run: AgentRunAggregate, revision: bigint): void {
    this.actor.adopt(run, revision);
  }

  /**
   * The run is being queued and claimed here in one commit, and executes before it is in: `commit` gives the stream
   * as it left it, or nothing when it was not recorded (or its outcome is unknown), and the run stops unrecorded.
   */
  startingHere(commit: Promise<{ run: AgentRunAggregate; revision: bigint } | undefined>): void {
    this.recorded = commit.then((started) => {
      if (started) this.startedHere(started.run, started.revision);
      else this.controller.abort(new RunTakenAway());
      return !!started;
    });
  }

  /** Executes the claimed run; `modelDone` is called once it makes no more model calls, before its end is recorded. */
  async execute(run: AgentRunAggregate, agent: Agent | null, modelDone: () => void = () => undefined): Promise<void> {
    if (!agent) {
      const error = { code: 'agent_not_found', message: `Agent ${run.agentId} does not exist` };
      modelDone();
      return this.finish({ outcome: { error }, usage: null, attempts: 0 });
    }
    const { signal } = this.controller;
    const timer = setTimeout(() => this.controller.abort(new RunTimedOut()), this.deps.timeoutMs);
    const lease = setInterval(() => void this.renewLease(), Math.max(100, Math.floor(this.deps.leaseMs / 3)));
    let end: Omit<EndAgentRun, 'type' | 'executorId'>;
    try {
      // The AI SDK is loaded with the first run rather than at the service's start.
      const loop = await import('../agent-loop/agent-loop');
      const { toModelMessages } = await import('../agent-loop/thread-history');
      const judge = new GuardrailJudge(this.deps.agents, this.deps.providers, loop, signal);
      const recorded = await recordedCallsOf(this.deps.actors, run);
      const turnsDeps = { ...this.deps, judge: judge.ask, recorded };
      const turns = new AgentTurns(run, turnsDeps, (command) => this.record(command), signal);
      const turn = turns.prepare(await agentNow(this.deps.actors, run, agent));
      const { tools, modelNames, guard } = turn;
      // A run resumed after decisions or its children's ends: carry the decisions out, then go on from its
      // conversation so far (the children's answers are the results of the calls that started them). After a
      // handoff, that conversation is what the agent handed to was sent, and the calls since.
      let resume: ModelMessage[] | undefined;
      const handedOff = run.lastHandoff;
      if (run.decided?.length || run.children?.length) {
        const toolCalls = run.toolCalls.slice(handedOff?.toolCallsBefore ?? 0);
        for (const decided of run.decided) {
          if (run.toolCalls.some((call) => call.id === decided.toolCallId)) continue;
          toolCalls.push(await this.carryOut(decided, tools, loop.runTool, signal, guard));
        }
        const since = toModelMessages(runMessages({ ...run, toolCalls }), modelNames);
        resume = handedOff ? [...(handedOff.messages as ModelMessage[]), ...since.slice(1)] : since;
      }
      // A thread's earlier runs have settled (the executor takes them in order): its last messages are projected.
      const { maxMessages } = turn.agent.memory;
      const remembered =
        run.threadId && !handedOff
          ? memoryWindow(this.deps.threads.lastMessages(run.threadId, maxMessages), maxMessages)
          : [];
      const memory = {
        ...this.deps,
        loop,
        signal,
        window: handedOff ? null : remembered.length,
        attempts: judge.attempts,
      };
      const given = await memoryMessages(run, turn.agent, memory, async (recall) => void (this.recall = recall));
      const history = [...given, ...toModelMessages(remembered, modelNames)];
      // A resumed run's task was checked when it first started.
      const queuedChecks = run.inputChecked ? run.guardrails : undefined;
      const sent = resume
        ? { task: run.task, context: run.context }
        : await guard.input(run.task, run.context, queuedChecks);
      const done = await turns.take(turn, { ...sent, history, resume }, loop);
      const { result } = done;
      const { usage: modelUsage, modelAttempts } = this.deps.prices.pricedAttempts(run.usage, done.modelAttempts);
      // The judges' tokens count to the run too, though they are no attempt of its model.
      const usage = () => this.deps.prices.pricedAttempts(modelUsage, judge.attempts).usage;
      const attempts = run.attempts + done.attempts;
      if (result.waitingFor?.length || result.childCalls?.length) {
        const spent = { usage: usage(), attempts };
        return await this.wait(run, result.waitingFor ?? [], result.childCalls ?? [], spent, modelDone);
      }
      const answered = done.turn.guard;
      const answer = await answered.output(result.output, result.outputObject);
      const outcome = 'blocked' in answer ? this.outcomeOf(answer.blocked, undefined) : answer;
      if (answered.holdsOutput && 'output' in outcome && outcome.output)
        this.deps.feed.publish(this.runId, outcome.output);
      end = { outcome, usage: usage(), attempts, answeredBy: done.turn.agent.id, ...fellBack(modelAttempts) };
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : undefined;
      if (reason instanceof RunTakenAway || error instanceof RunTakenAway) return;
      const failed = error instanceof ModelRunError ? error : undefined;
      const modelAttempts = failed ? this.deps.prices.pricedAttempts(null, failed.modelAttempts).modelAttempts : [];
      const outcome = this.outcomeOf(error, reason);
      // A run cancelled mid-answer keeps what it had written, for a thread that keeps its turn (`interrupt`).
      const written = 'cancelled' in outcome && this.deps.feed.soFar(this.runId);
      end = {
        outcome: written ? { cancelled: true, partialOutput: written } : outcome,
        usage: null,
        attempts: failed?.attempts ?? 0,
        ...fellBack(modelAttempts),
      };
    } finally {
      clearTimeout(timer);
      clearInterval(lease);
      this.deps.feed.finished(this.runId);
    }
    modelDone();
    await this.finish(end);
  }

  /**
   * The run waits for decisions on `approvals` and for the child runs the `calls` start, holding nothing: once that
   * is recorded the slot is let go. The children are queued in the same commit where the store can, those with a
   * free slot here claimed and started while it is made; else just after it (should that fail, the agent-tree
   * manager queues them from the log).
   */
  private async wait(
    run: AgentRunAggregate,
    approvals: Wait['approvals'],
    calls: ChildRunCall[],
    spent: Pick<Wait, 'usage' | 'attempts'>,
    modelDone: () => void,
  ): Promise<void> {
    const children = this.deps.childRuns.requests(calls);
    const queueing = children.length
      ? await this.deps.childRuns.prepare({ id: run.id, depth: run.depth ?? 0 }, children)
      : undefined;
    const { executorId } = this.deps;
    let waited: SendResult<AgentRunState, AgentRunEvent>;
    try {
      const sending = this.send({ type: 'Wait', executorId, approvals, children, ...spent }, queueing?.opens);
      queueing?.startAhead();
      waited = await sending;
    } catch (error) {
      queueing?.notRecorded();
      throw error;
    }
    modelDone();
    await queueing
      ?.recorded(waited)
      .catch((error: unknown) =>
        this.deps.logger.warn(`Children of run ${run.id} are left to the log: ${String(error)}`),
      );
  }

  /** A decided call: an approved one runs (with the args the person gave, if any); a rejected one has its result. */
  private async carryOut(
    decided: AgentRunAggregate['decided'][number],
    tools: RunnableTool[],
    runTool: typeof import('../agent-loop/agent-loop').runTool,
    signal: AbortSignal,
    guard: RunGuardrails,
  ): Promise<ToolCall> {
    const { executorId } = this.deps;
    const { toolCallId: callId, tool } = decided;
    const approved = decided.decision === 'approve';
    const input = approved && decided.args !== undefined ? decided.args : decided.requestedArgs;
    await this.record({ type: 'RecordToolCall', executorId, callId, tool, input });
    const startedAt = new Date().toISOString();
    let result: { output: unknown } | { error: string };
    if (!approved) result = { output: { rejected: true, reason: decided.reason ?? null } };
    else {
      const runnable = tools.find((t) => t.id === tool);
      const redact = (text: string) => this.deps.providers.redaction.apply(text);
      result = runnable
        ? await guard.toolResult(callId, await runTool(runnable, input, signal, redact, callId))
        : { error: `The tool "${tool}" is not available now` };
    }
    await this.record({ type: 'RecordToolResult', executorId, callId, tool, ...result });
    return { id: callId, tool, input, ...result, startedAt, endedAt: new Date().toISOString() };
  }

  private outcomeOf(error: unknown, reason: unknown): EndAgentRun['outcome'] {
    return outcomeOf(error, reason, this.deps.timeoutMs, (message) =>
      this.deps.logger.error(`Run ${this.runId} failed unexpectedly: ${message}`),
    );
  }

  /** The end must be recorded: keep trying through a store outage, until the service stops. */
  private async finish(end: Omit<EndAgentRun, 'type' | 'executorId'>): Promise<void> {
    // Started ahead of its queueing's commit, which failed: the run was never recorded, so it has no end either.
    if (this.recorded && !(await this.recorded)) return;
    runSpanEnded(end);
    try {
      const { events } = await persistently(
        () => this.send({ type: 'EndAgentRun', executorId: this.deps.executorId, ...end }),
        `Recording the end of run ${this.runId}`,
        this.deps.logger,
        this.deps.stopping,
      );
      // A child's parent is told at once (the agent-tree manager tells it from the log otherwise).
      this.deps.childRuns.endedHere(events);
    } catch (error) {
      // Ended by someone else meanwhile, or the service is stopping: the lease sweep ends it as interrupted.
      this.deps.logger.warn(`The end of run ${this.runId} was not recorded: ${String(error)}`);
    }
  }

  /** A tool call or result; should the run have been taken away, the loop stops. */
  private async record(command: AgentRunCommand): Promise<void> {
    try {
      await this.send(command);
    } catch (error) {
      if (error instanceof DomainError) {
        this.controller.abort(new RunTakenAway());
        throw new RunTakenAway();
      }
      throw error;
    }
  }

  private async renewLease(): Promise<void> {
    try {
      await this.send({ type: 'RenewRunLease', executorId: this.deps.executorId });
    } catch (error) {
      if (error instanceof DomainError) this.controller.abort(new RunTakenAway());
      else this.deps.logger.warn(`Could not renew the lease of run ${this.runId}: ${String(error)}`);
    }
  }

  /** A command to the run's stream, opening the streams `opens` makes from its events in the same commit. */
  /** Sends a command to the run; what it recalled goes in the same commit, until that is recorded. */
  private async send(command: AgentRunCommand, opens?: SendOptions<AgentRunEvent>['opens']) {
    if (this.recorded && !(await this.recorded))
      throw new DomainError('conflict', `Run ${this.runId} was not recorded`);
    const recall = this.recall;
    const sent = recall && command.type !== 'RecordRecall' ? { ...recall, then: command } : command;
    const result = await this.deps.actors.sendThrough(this.actor, sent, this.context, { opens });
    if (this.recall === recall) this.recall = undefined;
    return result;
  }
}

/** The models a run called, recorded with its end when it went on to a fallback (one model needs no record). */
function fellBack(modelAttempts: ModelAttempt[]): { modelAttempts?: ModelAttempt[] } {
  return modelAttempts.length > 1 ? { modelAttempts } : {};
}
