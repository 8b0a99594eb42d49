import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DatasetsModule } from '../datasets/datasets.module';
import { PreferWait } from '../http/prefer-wait';
import { ScorersModule } from '../scorers/scorers.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { CreateExperimentHandler } from './manage-experiments/create-experiment.handler';
import { ExperimentsController } from './manage-experiments/experiments.controller';
import { ExperimentQueries } from './queries/experiment-queries';
import { ExperimentQueriesController } from './queries/experiment-queries.controller';
import { ExperimentsProjection } from './queries/experiments.projection';
import { ExperimentsReadModel } from './queries/experiments.read-model';

/** Experiments: a dataset's items run on an agent or a workflow and scored, recorded item by item (docs/api.md). */
@Module({
  imports: [AgentsModule, DatasetsModule, ScorersModule, WorkflowsModule],
  controllers: [ExperimentsController, ExperimentQueriesController],
  providers: [CreateExperimentHandler, ExperimentsReadModel, ExperimentsProjection, ExperimentQueries, PreferWait],
})
export class ExperimentsModule {}
