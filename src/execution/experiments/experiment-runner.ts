import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { AGENT_RUN_ENDINGS, AgentRunEndedData } from '../../agents/agent-run/agent-run.events';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { DatasetsReadModel } from '../../datasets/queries/datasets.read-model';
import { RecordedEvent } from '../../event-store/event-store';
import {
  ExperimentAggregate,
  ExperimentItemsStarted,
  experimentDecider,
  experimentStream,
  isWorkflowTarget,
  openSlots,
} from '../../experiments/experiment';
import { IdGenerator } from '../../shared/ids';
import { WORKFLOW_RUN_ENDINGS } from '../../workflows/workflow-run/workflow-run.events';
import { ItemRuns } from './item-runs';
import { ItemScores } from './item-scores';

const FOLLOWED = [
  'ExperimentCreated',
  'ExperimentItemsStarted',
  'ExperimentItemScored',
  ...AGENT_RUN_ENDINGS,
  ...WORKFLOW_RUN_ENDINGS,
];

/**
 * The process manager of experiments, over events: a created experiment starts its first items (at most
 * `concurrency`), each an ordinary run of the agent or workflow with `experimentId`; an item's run that ends is
 * scored by every scorer, and the next item starts in its place, until every item is scored. It follows the log from its own
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
    private readonly itemRuns: ItemRuns,
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
      if (experiment) await this.itemRuns.queue(experiment, items);
      return;
    }
    if (event.type === 'ExperimentCreated' || event.type === 'ExperimentItemScored') {
      const experimentId = String(event.type === 'ExperimentCreated' ? event.data.id : event.data.experimentId);
      return this.fill(experimentId);
    }
    // An agent run's ending or a workflow run's: both name the run and, for an experiment's, the experiment.
    const ended = event.data as unknown as Pick<AgentRunEndedData, 'runId' | 'experimentId'>;
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
    const prefix = isWorkflowTarget(experiment.target) ? 'wfrun' : 'agentrun';
    const items = page.items.map((item) => ({ itemId: item.id, runId: this.ids.newId(prefix) }));
    if (!items.length) return;
    const started = await this.actors.send(
      experimentStream(experimentId),
      experimentDecider,
      { type: 'StartExperimentItems', experimentId, items },
      { correlationId: experimentId, causationId: experimentId },
    );
    // Recorded first, then queued: should this stop here, ExperimentItemsStarted brings them from the log.
    const recorded = started.events[0] as ExperimentItemsStarted | undefined;
    if (recorded) await this.itemRuns.queue(started.state!, recorded.data.items);
  }

  private experiment(experimentId: string): Promise<ExperimentAggregate | null> {
    return this.actors.of(experimentStream(experimentId), experimentDecider).read();
  }
}
