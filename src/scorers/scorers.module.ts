import { Module } from '@nestjs/common';
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

/** Scorers: how an answer is judged, by code or by a judge agent (docs/api.md, "Scorers"). */
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
  ],
  exports: [ScorersReadModel, Scoring, ScorerDirectory],
})
export class ScorersModule {}
