import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { trialAgent } from '../../agents/agent-trial';
import { agentRunDecider, queueingFor } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { DatasetsReadModel } from '../../datasets/queries/datasets.read-model';
import { AgentTarget, ExperimentAggregate, WorkflowTarget, isWorkflowTarget } from '../../experiments/experiment';
import { Clock, isoTime } from '../../shared/clock';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { RunsQueuedHere } from '../agent-runs/runs-queued-here';

export type StartedItem = { itemId: string; runId: string };

/**
 * Queues the runs of an experiment's items, each on a stream of its own opened once (a run queued before is left as
 * it is, so queueing twice, after a restart or on a second instance, runs no item twice). An agent item is a run
 * of the agent at the experiment's version with its overrides, claimed here when a slot is free; a workflow item a
 * run of the workflow with the item as its input. In `recorded` mode, an item made from a run replays that run's
 * tool results (a workflow run's, step by step).
 */
@Injectable()
export class ItemRuns {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly datasets: DatasetsReadModel,
    private readonly queuedHere: RunsQueuedHere,
    private readonly clock: Clock,
  ) {}

  async queue(experiment: ExperimentAggregate, items: StartedItem[]): Promise<void> {
    const { target } = experiment;
    if (isWorkflowTarget(target)) return this.queueWorkflowRuns(experiment, target, items);
    return this.queueAgentRuns(experiment, target, items);
  }

  private async queueAgentRuns(experiment: ExperimentAggregate, target: AgentTarget, items: StartedItem[]) {
    const { agentId, agentVersion, overrides } = target;
    const agent = await trialAgent(this.actors, agentId, agentVersion, overrides);
    const { id: experimentId } = experiment;
    await Promise.all(
      items.map(async ({ itemId, runId }) => {
        const item = this.itemOf(experiment, itemId);
        if (!item) return;
        const input = item.input as { task: string; context?: Record<string, unknown> };
        const trial = { overrides, recordedFrom: item.recordedFrom };
        const run = { id: runId, task: input.task, context: input.context ?? {}, experimentId, trial };
        const context = { correlationId: experimentId, causationId: experimentId };
        await this.queuedHere.queue({ id: runId, agent, mayStart: true }, (start) =>
          this.actors.send(agentRunStream(runId), agentRunDecider, queueingFor(agent, run, start), context, {
            newStream: true,
          }),
        );
      }),
    );
  }

  /**
   * A workflow item's run is opened on its own stream, not triggered on the workflow: it is no run of production,
   * so it moves no `lastRun` and takes no slot of `maxConcurrentRuns` (the experiment's `concurrency` bounds it).
   */
  private async queueWorkflowRuns(experiment: ExperimentAggregate, target: WorkflowTarget, items: StartedItem[]) {
    const { workflowId, workflowVersion, overrides } = target;
    const { id: experimentId } = experiment;
    await Promise.all(
      items.map(async ({ itemId, runId }) => {
        const item = this.itemOf(experiment, itemId);
        if (!item) return;
        const command = {
          type: 'QueueWorkflowRun' as const,
          id: runId,
          workflowId,
          input: item.input as Record<string, unknown>,
          trigger: { type: 'manual' as const },
          workflowVersion,
          createdAt: isoTime(this.clock.now()),
          experimentId,
          trial: { overrides, recordedFrom: item.recordedFrom },
        };
        const context = { correlationId: experimentId, causationId: experimentId };
        await this.actors.send(workflowRunStream(runId), workflowRunDecider, command, context, { newStream: true });
      }),
    );
  }

  /** The item, and in `recorded` mode the run whose tool results it replays (null: none). */
  private itemOf(experiment: ExperimentAggregate, itemId: string) {
    const item = this.datasets.itemEver(experiment.dataset.id, itemId);
    if (!item) return undefined;
    return { input: item.input, recordedFrom: experiment.mode === 'recorded' ? (item.sourceRunId ?? null) : null };
  }
}
