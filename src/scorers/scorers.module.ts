import { Global, Module } from '@nestjs/common';
import { ScorerNames } from '../agents/scorer-names.port';
import { ScorerDirectory } from './scorer-directory.port';
import { AgentsModule } from '../agents/agents.module';
import {
  ArchiveScorerHandler,
  CreateScorerHandler,
  ScoreAnswerHandler,
} from './manage-scorers/scorer-commands.handler';
import { ScorersController } from './manage-scorers/scorers.controller';
import { ScorerQueriesController } from './queries/scorer-queries.controller';
import { ScorersProjection } from './queries/scorers.projection';
import { ScorersReadModel } from './queries/scorers.read-model';
import { Scoring } from './scoring/scoring';

/**
 * Scorers: how an answer is judged, by code or by a judge agent (docs/api.md, "Scorers"). Global, so that the
 * agents module, which this one imports (a judge is an agent), can check that an agent's `scorers` name scorers.
 */
@Global()
@Module({
  imports: [AgentsModule],
  controllers: [ScorersController, ScorerQueriesController],
  providers: [
    CreateScorerHandler,
    ArchiveScorerHandler,
    ScoreAnswerHandler,
    ScorersReadModel,
    ScorersProjection,
    Scoring,
    { provide: ScorerDirectory, useExisting: ScorersReadModel },
    { provide: ScorerNames, useExisting: ScorersReadModel },
  ],
  exports: [ScorersReadModel, Scoring, ScorerDirectory, ScorerNames],
})
export class ScorersModule {}
