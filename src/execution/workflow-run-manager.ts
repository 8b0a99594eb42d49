import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { agentDecider, agentStream } from '../agents/agent';
import { agentNameDecider, agentNameStream } from '../agents/agent-name';
import {
  AGENT_RUN_ENDINGS,
  AgentRunFailed,
  AgentRunSucceeded,
  agentRunDecider,
  agentRunStream,
} from '../agents/agent-run';
import { APP_CONFIG, AppConfig } from '../config';
import { DomainError } from '../domain/decider';
import { isEnded } from '../domain/run';
import { CHECKPOINT_STORE, CheckpointStore } from '../consumers/checkpoint-store';
import { CheckpointedConsumer } from '../consumers/checkpointed-consumer';
import { EVENT_STORE, EventStore, RecordedEvent } from '../event-store/event-store';
import { ProjectionRunner } from '../read-models/projection-runner';
import { IdGenerator } from '../shared/ids';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { workflowDecider, workflowStream } from '../workflows/workflow';
import {
  StepOutcome,
  WorkflowRunCommand,
  WorkflowStepStarted,
  stepContext,
  workflowRunDecider,
  workflowRunStream,
} from '../workflows/workflow-run';
import { persistently } from '../actors/persistently';
import { runIn } from '../shared/trace-context';
import { WorkflowRunTraces } from './workflow-run-traces';

const EVENT_TYPES = ['WorkflowRunQueued', 'WorkflowStepStarted', 'WorkflowRunCancelled', ...AGENT_RUN_ENDINGS];

/**
 * The process manager of workflow runs, over events: a queued run starts its first step; a step started queues
 * a run of its agent; that run's end ends the step and starts the next one, or ends the workflow run. A
 * cancelled workflow run cancels its step's agent run. It follows the log from its own checkpoint, and handling
 * an event twice changes nothing, so after a crash it simply reads on from where it last saved.
 */
@Injectable()
export class WorkflowRunManager
  extends CheckpointedConsumer
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected readonly name = 'workflow-run-manager';
  private stopping = false;
  private readonly traces: WorkflowRunTraces;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(CHECKPOINT_STORE) checkpoints: CheckpointStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly workflows: WorkflowsReadModel,
    private readonly agents: AgentsReadModel,
    private readonly projections: ProjectionRunner,
  ) {
    super(store, checkpoints);
    this.traces = new WorkflowRunTraces(actors, store);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runs.executorEnabled) return;
    await this.projections.whenCaughtUp();
    void this.follow({ filter: { eventTypes: EVENT_TYPES } });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.stopFollowing();
  }

  /** Events of different workflow runs are handled side by side, those of one run in order. */
  protected async handle(events: RecordedEvent[]): Promise<void> {
    const byRun = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      const runId = this.workflowRunOf(event);
      if (runId) byRun.set(runId, [...(byRun.get(runId) ?? []), event]);
    }
    await Promise.all(
      [...byRun.values()].map(async (runEvents) => {
        for (const event of runEvents) await this.handleEvent(event);
      }),
    );
  }

  private workflowRunOf(event: RecordedEvent): string | undefined {
    if (event.type === 'WorkflowRunQueued') return event.data.id as string;
    if (event.type.startsWith('AgentRun')) return event.data.workflowRunId as string | undefined;
    return event.data.runId as string;
  }

  private async handleEvent(event: RecordedEvent): Promise<void> {
    const what = `Handling ${event.type} at ${event.position}`;
    // In the run's trace, whichever instance handles it.
    const runId = this.workflowRunOf(event)!;
    const traced = this.traces.contextOf(event, runId);
    try {
      await runIn(traced, () =>
        persistently(
          () => this.handleNow(event),
          what,
          this.logger,
          () => this.stopping,
        ),
      );
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
        return this.start(event.data.id as string, event.data.workflowId as string);
      case 'WorkflowStepStarted':
        return this.queueStepRun(event.data as WorkflowStepStarted['data']);
      case 'WorkflowRunCancelled':
        return this.cancelSteps(event.data.runId as string);
      default:
        return this.endStep(event);
    }
  }

  private async start(runId: string, workflowId: string): Promise<void> {
    if (this.hasEnded(runId)) return;
    const workflow = await this.actors.of(workflowStream(workflowId), workflowDecider).read();
    if (!workflow) throw new DomainError('not_found', `Workflow ${workflowId} does not exist`);
    await this.sendToRun(runId, {
      type: 'StartWorkflowRun',
      workflowName: workflow.name,
      workflowVersion: workflow.version,
      steps: workflow.steps,
      firstAgentRunId: this.ids.newId('agentrun'),
    });
  }

  private async queueStepRun({
    runId,
    index,
    agent: name,
    task,
    agentRunId,
  }: WorkflowStepStarted['data']): Promise<void> {
    const run = await this.actors.of(workflowRunStream(runId), workflowRunDecider).read();
    if (!run || run.status !== 'running' || run.steps[index]?.agentRunId !== agentRunId) return;
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
        nextAgentRunId: '',
      });
      return;
    }
    await this.actors.send(
      agentRunStream(agentRunId),
      agentRunDecider,
      {
        type: 'QueueAgentRun',
        id: agentRunId,
        agentId: agent.id,
        model: agent.model,
        agentVersion: agent.version,
        task,
        context: stepContext(run, index),
        workflowRunId: runId,
        stepIndex: index,
      },
      { correlationId: runId, causationId: runId },
      { newStream: true },
    );
  }

  private async endStep(event: RecordedEvent): Promise<void> {
    const data = event.data as AgentRunSucceeded['data'] | AgentRunFailed['data'];
    const { workflowRunId, stepIndex, runId: agentRunId } = data;
    if (workflowRunId === undefined || stepIndex === undefined) return;
    const outcome: StepOutcome =
      event.type === 'AgentRunSucceeded'
        ? answerOf(data as AgentRunSucceeded['data'])
        : event.type === 'AgentRunFailed'
          ? { error: (data as AgentRunFailed['data']).error }
          : { cancelled: true };
    await this.sendToRun(workflowRunId, {
      type: 'EndWorkflowStep',
      index: stepIndex,
      agentRunId,
      outcome,
      nextAgentRunId: this.ids.newId('agentrun'),
    });
  }

  private async cancelSteps(runId: string): Promise<void> {
    const run = await this.actors.of(workflowRunStream(runId), workflowRunDecider).read();
    for (const step of run?.steps ?? []) {
      if (step.agentRunId === null || step.status !== 'cancelled') continue;
      await this.actors
        .send(
          agentRunStream(step.agentRunId),
          agentRunDecider,
          { type: 'CancelAgentRun' },
          { correlationId: runId, causationId: runId },
        )
        .catch((error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
        });
    }
  }

  private sendToRun(runId: string, command: WorkflowRunCommand) {
    const context = { correlationId: runId, causationId: runId };
    return this.actors.send(workflowRunStream(runId), workflowRunDecider, command, context);
  }

  /** Catching up over old runs: those the read models show as ended need no look at their streams. */
  private hasEnded(runId: string): boolean {
    const status = this.workflows.getRunAggregate(runId)?.status;
    return status !== undefined && isEnded(status);
  }
}

function answerOf({ output, outputObject }: AgentRunSucceeded['data']): StepOutcome {
  return outputObject === undefined ? { output } : { output, outputObject };
}
