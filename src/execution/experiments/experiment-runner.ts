import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { trialAgent } from '../../agents/agent-trial';
import { agentRunDecider, queueingFor } from '../../agents/agent-run/agent-run';
import { AGENT_RUN_ENDINGS, AgentRunEndedData, agentRunStream } from '../../agents/agent-run/agent-run.events';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { DatasetsReadModel } from '../../datasets/queries/datasets.read-model';
import { RecordedEvent } from '../../event-store/event-store';
import {
  ExperimentAggregate,
  ExperimentItemsStarted,
  experimentDecider,
  experimentStream,
  openSlots,
} from '../../experiments/experiment';
import { IdGenerator } from '../../shared/ids';
import { RunsQueuedHere } from '../agent-runs/runs-queued-here';
import { ItemScores } from './item-scores';

const FOLLOWED = ['ExperimentCreated', 'ExperimentItemsStarted', 'ExperimentItemScored', ...AGENT_RUN_ENDINGS];

/**
 * The process manager of experiments, over events: a created experiment starts its first items (at most
 * `concurrency`), each an ordinary agent run with `experimentId`; an item's run that ends is scored by every
 * scorer, and the next item starts in its place, until every item is scored. It follows the log from its own
 * checkpoint and every step is idempotent (an item is started once and scored once), so after a crash, or on a
 * second instance, it reads on from where it was and no item runs twice.
 */
@Injectable()
export class ExperimentRunner extends ProcessManager {
  protected readonly name = 'experiment-runner';
  protected override readonly follows = { filter: { eventTypes: FOLLOWED } };
  /** Most runs' endings are of no experiment: they cost no write each (a restart reads a second of the log again). */
  protected override readonly checkpointEveryMs = 1000;
  /** Each experiment's starts, one after another: two at once would pick the same next items. */
  private readonly filling = new Map<string, Promise<void>>();

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly datasets: DatasetsReadModel,
    private readonly queuedHere: RunsQueuedHere,
    private readonly scores: ItemScores,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override async handle(events: RecordedEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.handleOnce(event, () => this.handleNow(event))));
  }

  private async handleNow(event: RecordedEvent): Promise<void> {
    if (event.type === 'ExperimentItemsStarted') {
      const { experimentId, items } = event.data as ExperimentItemsStarted['data'];
      const experiment = await this.experiment(experimentId);
      if (experiment) await this.queueRuns(experiment, items);
      return;
    }
    if (event.type === 'ExperimentCreated' || event.type === 'ExperimentItemScored') {
      const experimentId = String(event.type === 'ExperimentCreated' ? event.data.id : event.data.experimentId);
      return this.fill(experimentId);
    }
    const ended = event.data as unknown as AgentRunEndedData;
    if (!ended.experimentId) return;
    const experiment = await this.experiment(ended.experimentId);
    if (!experiment || experiment.status === 'succeeded') return;
    const itemId = Object.keys(experiment.started).find((id) => experiment.started[id] === ended.runId);
    if (!itemId || experiment.scored[itemId]) return;
    const item = await this.scores.of(experiment, itemId, ended.runId);
    await this.actors.send(
      experimentStream(experiment.id),
      experimentDecider,
      { type: 'ScoreExperimentItem', experimentId: experiment.id, item },
      { correlationId: experiment.id, causationId: ended.runId },
    );
  }

  /** Starts the next items while the experiment has room, one pass at a time per experiment. */
  private fill(experimentId: string): Promise<void> {
    const previous = this.filling.get(experimentId) ?? Promise.resolve();
    const next = previous.then(() => this.fillNow(experimentId));
    const settled = next.catch(() => undefined);
    this.filling.set(experimentId, settled);
    void settled.then(() => {
      if (this.filling.get(experimentId) === settled) this.filling.delete(experimentId);
    });
    return next;
  }

  private async fillNow(experimentId: string): Promise<void> {
    const experiment = await this.experiment(experimentId);
    if (!experiment || experiment.status === 'succeeded') return;
    const slots = openSlots(experiment);
    if (!slots) return;
    const { dataset } = experiment;
    const after = experiment.lastStartedItemId ?? '';
    const page = this.datasets.items(dataset.id, dataset.version, after, slots);
    const items = page.items.map((item) => ({ itemId: item.id, runId: this.ids.newId('agentrun') }));
    if (!items.length) return;
    const started = await this.actors.send(
      experimentStream(experimentId),
      experimentDecider,
      { type: 'StartExperimentItems', experimentId, items },
      { correlationId: experimentId, causationId: experimentId },
    );
    // Recorded first, then queued: should this stop here, ExperimentItemsStarted brings them from the log.
    const recorded = started.events[0] as ExperimentItemsStarted | undefined;
    if (recorded) await this.queueRuns(started.state!, recorded.data.items);
  }

  /**
   * Queues each item's run (a run queued before is left as it is), claimed here when a slot is free: the agent at
   * the experiment's version with its overrides, and in `recorded` mode, an item made from a run replaying that
   * run's tool results.
   */
  private async queueRuns(experiment: ExperimentAggregate, items: Array<{ itemId: string; runId: string }>) {
    const { agentId, agentVersion, overrides } = experiment.target;
    const agent = await trialAgent(this.actors, agentId, agentVersion, overrides);
    const { id: experimentId, mode } = experiment;
    await Promise.all(
      items.map(async ({ itemId, runId }) => {
        const item = this.datasets.itemEver(experiment.dataset.id, itemId);
        if (!item) return;
        const input = item.input as { task: string; context?: Record<string, unknown> };
        const trial = { overrides, recordedFrom: mode === 'recorded' ? item.sourceRunId : null };
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

  private experiment(experimentId: string): Promise<ExperimentAggregate | null> {
    return this.actors.of(experimentStream(experimentId), experimentDecider).read();
  }
}
