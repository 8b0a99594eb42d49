import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { UsageController } from './usage.controller';
import { UsageProjection } from './usage.projection';
import { GetUsageHandler } from './usage.queries';
import { UsageReadModel } from './usage.read-model';

/** `GET /v1/usage`: runs, tokens and cost, from a projection of hourly sums. */
@Module({
  imports: [AgentsModule],
  controllers: [UsageController],
  providers: [UsageReadModel, UsageProjection, GetUsageHandler],
})
export class UsageModule {}
