import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ScoresController } from './scores.controller';
import { ScoresProjection } from './scores.projection';
import { ScoresReadModel } from './scores.read-model';

/** `GET /v1/scores`: the live scores of runs, from a projection of daily sums. */
@Module({
  imports: [AgentsModule],
  controllers: [ScoresController],
  providers: [ScoresReadModel, ScoresProjection],
})
export class ScoresModule {}
