import { Logger, Module } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { sseMessage } from '../http/sse';
import { EventFeed } from '../live/event-feed';
import { toEnvelope } from './event-envelope';
import { AgentsModule } from '../agents/agents.module';
import { ThreadsModule } from '../threads/threads.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { EventsController } from './events.controller';
import { ResourceHistoryController } from './resource-history.controller';

/** GET /v1/events (server-sent events and JSON pages) and the history of each agent, workflow and run. */
@Module({
  imports: [AgentsModule, WorkflowsModule, ThreadsModule],
  controllers: [EventsController, ResourceHistoryController],
  providers: [
    {
      provide: EventFeed,
      inject: [EVENT_STORE],
      useFactory: (store: EventStore) => {
        const logger = new Logger(EventFeed.name);
        return new EventFeed(
          store,
          (event) => sseMessage(event.type, toEnvelope(event), event.position.toString()),
          (error) => logger.warn(`The event feed stopped: ${error instanceof Error ? error.message : String(error)}`),
        );
      },
    },
  ],
})
export class EventsModule {}
