import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { EventsController } from './events.controller';
import { ResourceHistoryController } from './resource-history.controller';

/** GET /v1/events (server-sent events and JSON pages) and the history of each agent, workflow and run. */
@Module({
  imports: [AgentsModule, WorkflowsModule],
  controllers: [EventsController, ResourceHistoryController],
})
export class EventsModule {}
