import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentDecider, agentStream } from '../../agents/agent';
import { agentNameDecider, agentNameStream } from '../../agents/agent-name';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { agentRunDecider, queueingFor } from '../../agents/agent-run/agent-run';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../domain/decider';
import { isEnded } from '../../domain/run';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { Clock } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { WorkflowsReadModel } from '../../workflows/queries/workflows.read-model';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { workflowDecider } from '../../workflows/workflow/workflow';
import { workflowStream } from '../../workflows/workflow/workflow.events';
import { WorkflowRunCommand, runIdsFrom } from '../../workflows/workflow-run/workflow-run.commands';
import { WorkflowRunAggregate } from '../../workflows/workflow-run/workflow-run.state';
import {
  WorkflowChildRunStarted,
  WorkflowStepRepeating,
  WorkflowStepRetrying,
  WorkflowStepStarted,
} from '../../workflows/workflow-run/workflow-run.events';
import { stepContext } from '../../workflows/workflow-run/step-context';
import { taskOfAgentRun } from '../../workflows/workflow-run/map-steps';
import { reusableSteps } from '../../workflows/replay-workflow-run/reusable-steps';
import { isHeld } from '../../domain/run-slots';
import { currentTraceparent, inAsyncScope, laterInThisScope } from '../../shared/trace-context';
import { RunsQueuedHere } from '../agent-runs/runs-queued-here';
import { WorkflowRunActors } from './workflow-run-actors';
import { stepTrial, trialStart } from './workflow-run-trials';
import { replayedRun } from './workflow-run-replays';
import { ChildWorkflowRuns } from './child-workflow-runs';
import { cancelStoppedAgentRuns } from './stopped-steps';
import { WorkflowTriggers } from '../../workflows/trigger-workflow/workflow-triggers';
import { WorkflowRunTraces } from './workflow-run-traces';
import {
  FOLLOWED_EVENT_TYPES,
  isAgentRunEnding,
  sideBySide,
  stepEndOf,
  workflowRunOf,
} from './workflow-run-manager-events';

/**
 * The process manager of workflow runs, over events: a queued run starts its first step; a step started queues
 * a run of its agent; that run's end ends the step and starts the next one, or ends the workflow run. A
 * cancelled workflow run cancels its step's agent run. It follows the log from its own checkpoint, and handling
 * an event twice changes nothing, so after a crash it simply reads on from where it last saved.
 */
@Injectable()
export class WorkflowRunManager extends ProcessManager {
  protected readonly name = 'workflow-run-manager';
  protected override readonly follows = { filter: { eventTypes: FOLLOWED_EVENT_TYPES } };
  /** Retries waiting for their time, and steps' time limits, by `<run>:<step>`; each holds its event. */
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; release: () => void }>();
  private readonly traces: WorkflowRunTraces;
  private readonly runs: WorkflowRunActors;
  private readonly maxMapItems: number;
  private readonly maxDepth: number;
  private readonly children: ChildWorkflowRuns;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly workflows: WorkflowsReadModel,
    private readonly agents: AgentsReadModel,
    private readonly clock: Clock,
    private readonly queuedHere: RunsQueuedHere,
    triggers: WorkflowTriggers,
  ) {
    super(deps, config.runs.executorEnabled);
    this.runs = new WorkflowRunActors(actors);
    this.traces = new WorkflowRunTraces(this.runs, deps.store);
    this.maxMapItems = config.workflows.maxMapItems;
    this.maxDepth = config.workflows.maxDepth;
    const send = (runId: string, command: WorkflowRunCommand) => this.sendToRun(runId, command);
    this.children = new ChildWorkflowRuns(this.runs, workflows, triggers, send, runIdsFrom(ids));
  }

  protected override stopTakingWork(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Events of different workflow runs are handled side by side, those of one run in order. */
  protected override async handle(events: RecordedEvent[]): Promise<void> {
    const byRun = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      const runId = workflowRunOf(event);
      if (!runId) continue;
      const runEvents = byRun.get(runId);
      if (runEvents) runEvents.push(event);
      else byRun.set(runId, [event]);
    }
    await Promise.all(
      [...byRun.values()].map(async (runEvents) => {
        for (const group of sideBySide(runEvents)) {
          if (group.length > 1 && isAgentRunEnding(group[0]))
            await this.handleEvent(group[0], () => this.endSteps(group));
          else await Promise.all(group.map((event) => this.handleEvent(event)));
        }
      }),
    );
  }

  private async handleEvent(event: RecordedEvent, handling = () => this.handleNow(event)): Promise<void> {
    const what = `Handling ${event.type} at ${event.position}`;
    // In the run's trace, whichever instance handles it.
    const runId = workflowRunOf(event)!;
    const traced = this.traces.contextOf(event, runId);
    try {
      const work = () => this.persistently(handling, what);
      await (traced ? inAsyncScope(traced, work) : work());
      await this.traces.recordEnded(runId, traced);
    } catch (error) {
      if (this.stopping) throw error;
      // A refusal of the domain means the event has nothing left to do (a repeat, or a run already ended).
      this.logger.debug(`${what}: ${String(error)}`);
    }
  }

  private async handleNow(event: RecordedEvent): Promise<void> {
    switch (event.type) {
      case 'WorkflowRunQueued':
        this.runs.adoptOpening(event.data.id as string, event);
        return this.start(event.data.id as string, event.data.workflowId as string);
      case 'WorkflowStepStarted':
      case 'WorkflowMapItemStarted':
        return this.stepStarted(event);
      case 'WorkflowMapStarted':
        return this.watchTimeLimit(event);
      case 'WorkflowChildRunStarted':
        return this.childStarted(event);
      case 'WorkflowRunSucceeded':
        return this.children.ended(event);
      case 'WorkflowStepRetrying':
        return this.retryLater(event);
      case 'WorkflowStepRepeating': {
        // The next iteration of a repeating step starts at once.
        const { runId, index, nextAgentRunId } = event.data as WorkflowStepRepeating['data'];
        await this.queueStepRun(runId, index, nextAgentRunId);
        return;
      }
      case 'WorkflowStepEnded':
        return this.clearTimer(`${event.data.runId as string}:${event.data.index as number}`);
      case 'WorkflowRunCancelled':
      case 'WorkflowRunFailed':
        await this.cancelSteps(event.data.runId as string);
        return this.children.ended(event);
      default:
        return this.endStep(event);
    }
  }

  /**
   * Starts a queued run, unless it waits for a slot (`maxConcurrentRuns`; WorkflowRunSlots starts it then): an
   * experiment's run with the steps it tries, a replay with those it replays, any other with the workflow's own.
   */
  async start(runId: string, workflowId: string): Promise<void> {
    if (this.hasEnded(runId)) return;
    const workflow = await this.actors.of(workflowStream(workflowId), workflowDecider).read();
    if (!workflow) throw new DomainError('not_found', `Workflow ${workflowId} does not exist`);
    if (isHeld(workflow.runs, runId)) return;
    const run = await this.runs.read(runId);
    if (run?.status !== 'queued') return;
    const newRunId = runIdsFrom(this.ids);
    const { maxMapItems, maxDepth } = this;
    if (run.trial) {
      const trial = await trialStart(this.actors, run);
      await this.sendToRun(runId, { type: 'StartWorkflowRun', ...trial, maxMapItems, maxDepth, newRunId });
      return;
    }
    const replayed = run.replayOf ? await replayedRun(this.runs, this.store, run.replayOf.runId) : undefined;
    // A replay runs the version it replays (unless it asked for the current one), from what that run recorded.
    const original = replayed && replayed.workflowVersion === run.workflowVersion;
    const steps = original ? replayed.steps : workflow.steps;
    const outputStep = original ? replayed.outputStep : workflow.outputStep;
    const workflowVersion = original ? replayed.workflowVersion! : workflow.version;
    await this.sendToRun(runId, {
      type: 'StartWorkflowRun',
      workflowName: workflow.name,
      workflowVersion,
      steps,
      ...(outputStep !== undefined && { outputStep }),
      maxMapItems,
      maxDepth,
      newRunId,
      ...(run.replayOf && replayed && { reuse: reusableSteps(steps, run.replayOf.fromStep, replayed.run) }),
    });
  }

  /**
   * A step (or an item of a map step) started: its agent run is queued, and a step's time limit, if it has one, is
   * watched.
   */
  private async stepStarted(event: RecordedEvent): Promise<void> {
    const { runId, index, agentRunId } = event.data as WorkflowStepStarted['data'];
    const run = await this.queueStepRun(runId, index, agentRunId);
    if (run && event.type === 'WorkflowStepStarted') this.watchTimeLimit(event, run);
  }

  /** Fails a running step once its `timeoutMs` has passed (a map step's bounds all its items). */
  private async watchTimeLimit(event: RecordedEvent, known?: WorkflowRunAggregate): Promise<void> {
    const { runId, index } = event.data as { runId: string; index: number };
    const step = (known ?? (await this.runs.read(runId)))?.steps[index];
    if (!step?.timeoutMs || !step.startedAt) return;
    const at = Date.parse(step.startedAt) + step.timeoutMs;
    this.setTimer(`${runId}:${index}`, event, at, () => this.sendToRun(runId, { type: 'ExpireWorkflowStep', index }));
  }

  /** A failed attempt with attempts left: the next one is queued at its time (after a restart too). */
  private async retryLater(event: RecordedEvent): Promise<void> {
    const { runId, index, nextAgentRunId, retryAt } = event.data as WorkflowStepRetrying['data'];
    const key = `${runId}:${index}:retry`;
    this.setTimer(key, event, Date.parse(retryAt), async () => {
      const run = await this.runs.read(runId);
      if (run?.steps[index]?.workflow) await this.children.start(run, index, nextAgentRunId);
      else await this.queueStepRun(runId, index, nextAgentRunId);
    });
  }

  /** A workflow step started: its child run is triggered, and its time limit, if it has one, is watched. */
  private async childStarted(event: RecordedEvent): Promise<void> {
    const { runId, index, childRunId } = event.data as WorkflowChildRunStarted['data'];
    const run = await this.runs.read(runId);
    if (!run) return;
    await this.children.start(run, index, childRunId);
    await this.watchTimeLimit(event, run);
  }

  /** Runs `task` at `at` (by the service's clock), holding the event's checkpoint until it has, so a restart does it again. */
  private setTimer(key: string, event: RecordedEvent, at: number, task: () => Promise<unknown>): void {
    if (this.timers.has(key) || this.stopping) return;
    const release = this.hold(event);
    // In the run's trace when it fires, though the scope it was set in has ended.
    const traced = laterInThisScope(task);
    const timer = setTimeout(
      () => {
        void this.persistently(traced, `${key} at ${event.position}`)
          .catch((error: unknown) => this.logger.debug(`${key}: ${String(error)}`))
          .finally(() => this.clearTimer(key));
      },
      Math.max(0, at - this.clock.now().getTime()),
    );
    this.timers.set(key, { timer, release });
  }

  private clearTimer(key: string): void {
    const entry = this.timers.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.timers.delete(key);
    entry.release();
  }

  /** Queues the agent run of a step's attempt, unless the step has moved on; returns the run as it was. */
  private async queueStepRun(
    runId: string,
    index: number,
    agentRunId: string,
  ): Promise<WorkflowRunAggregate | undefined> {
    const run = await this.runs.read(runId);
    const step = run?.steps[index];
    const task = step && taskOfAgentRun(step, agentRunId);
    if (!run || isEnded(run.status) || !step?.agent || task === undefined) return;
    const name = step.agent;
    const { claimedBy } = await this.actors.of(agentNameStream(name), agentNameDecider).read();
    const agent = claimedBy ? await this.actors.of(agentStream(claimedBy), agentDecider).read() : null;
    // An archived agent, or one renamed since, is no longer the agent of that name.
    if (!agent || agent.status === 'archived' || agent.name !== name) {
      const archived = agent?.status === 'archived' ? agent.id : this.agents.archivedAgentNamed(name);
      const message = archived
        ? `The agent named "${name}" (${archived}) is archived; name another agent in this step`
        : `No agent is named "${name}"`;
      const error = { code: 'agent_not_found', message };
      await this.sendToRun(runId, {
        type: 'EndWorkflowStep',
        index,
        agentRunId,
        outcome: { error },
        newRunId: runIdsFrom(this.ids),
      });
      return run;
    }
    // With a free slot of the local executor, the step's run is queued and claimed in one commit.
    const traceparent = currentTraceparent();
    const trial = await stepTrial(this.runs, run, index);
    await this.queuedHere.queue({ id: agentRunId, agent, traceparent, mayStart: true }, (start) =>
      this.actors.send(
        agentRunStream(agentRunId),
        agentRunDecider,
        queueingFor(
          agent,
          { id: agentRunId, task, context: stepContext(run, index), workflowRunId: runId, stepIndex: index, ...trial },
          start,
        ),
        { correlationId: runId, causationId: runId },
        { newStream: true },
      ),
    );
    return run;
  }

  private async endStep(event: RecordedEvent): Promise<void> {
    const end = stepEndOf(event);
    if (!end) return;
    await this.sendToRun(end.workflowRunId, {
      type: 'EndWorkflowStep',
      ...end,
      newRunId: runIdsFrom(this.ids),
    });
  }

  /** Agent runs of one workflow run that ended together end their steps in one command (one append). */
  private async endSteps(events: RecordedEvent[]): Promise<void> {
    const ends = events.map(stepEndOf).filter((end) => end !== undefined);
    if (!ends.length) return;
    await this.sendToRun(ends[0].workflowRunId, {
      type: 'EndWorkflowSteps',
      ends: ends.map(({ index, agentRunId, outcome }) => ({ index, agentRunId, outcome })),
      newRunId: runIdsFrom(this.ids),
    });
  }

  /** A run ended: what its stopped steps left running is cancelled, its agent runs and its child runs. */
  private async cancelSteps(runId: string): Promise<void> {
    const run = await this.runs.read(runId);
    await cancelStoppedAgentRuns(this.actors, run);
    await this.children.cancel(run);
  }

  private sendToRun(runId: string, command: WorkflowRunCommand) {
    return this.runs.send(runId, command, { correlationId: runId, causationId: runId });
  }

  /** Catching up over old runs: those the read models show as ended need no look at their streams. */
  private hasEnded(runId: string): boolean {
    const status = this.workflows.getRunAggregate(runId)?.status;
    return status !== undefined && isEnded(status);
  }
}
