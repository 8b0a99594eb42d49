import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ThreadsModule } from '../threads/threads.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { EventsController } from './events.controller';
import { ResourceHistoryController } from './resource-history.controller';

/** GET /v1/events (server-sent events and JSON pages) and the history of each agent, workflow and run. */
@Module({
  imports: [AgentsModule, WorkflowsModule, ThreadsModule],
  controllers: [EventsController, ResourceHistoryController],
})
export class EventsModule {}
