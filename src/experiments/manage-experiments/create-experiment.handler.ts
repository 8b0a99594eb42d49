import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { AgentTrials } from '../../agents/agent-trials.port';
import { DatasetItems } from '../../datasets/dataset-items.port';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { ScorerDirectory } from '../../scorers/scorer-directory.port';
import { IdGenerator } from '../../shared/ids';
import { traceOf } from '../../shared/trace-context';
import { WorkflowTrials } from '../../workflows/workflow-trials.port';
import { experimentDecider, experimentStream } from '../experiment';
import { ExperimentView } from '../experiment-view';
import { ExperimentQueries } from '../queries/experiment-queries';
import { CreateExperimentCommand } from './experiment.commands';
import { planOf } from './experiment-plan';
import { checkTrial } from './experiment-trial';

@CommandHandler(CreateExperimentCommand)
export class CreateExperimentHandler implements ICommandHandler<CreateExperimentCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly experiments: ExperimentQueries,
    private readonly datasets: DatasetItems,
    private readonly agents: AgentDirectory,
    private readonly scorers: ScorerDirectory,
    private readonly agentTrials: AgentTrials,
    private readonly workflows: WorkflowTrials,
  ) {}

  async execute(command: CreateExperimentCommand): Promise<ExperimentView> {
    const id = this.ids.newId('experiment');
    const { datasets, agents, workflows, scorers } = this;
    const plan = planOf(id, command.body, { datasets, agents, workflows, scorers });
    await checkTrial(plan.target, { agents: this.agentTrials, workflows });
    const created = await this.actors.send(
      experimentStream(id),
      experimentDecider,
      { type: 'CreateExperiment', plan },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    return this.experiments.get(id);
  }
}
