import { Logger, Module } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { sseJsonMessage, sseMessage } from '../http/sse';
import { SseStreams } from '../http/sse-streams';
import { EventFeed } from '../live/event-feed';
import { Slots } from '../shared/slots';
import { envelopeJson, toEnvelope } from './event-envelope';
import { LOG_READ_SLOTS, SLOW_READER_MS } from './log-read-slots';
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
    SseStreams,
    {
      provide: LOG_READ_SLOTS,
      inject: [APP_CONFIG],
      useFactory: (config: Pick<AppConfig, 'eventLog'>) => new Slots(config.eventLog.maxCatchingUp),
    },
    {
      provide: EventFeed,
      inject: [EVENT_STORE, LOG_READ_SLOTS, APP_CONFIG],
      useFactory: (store: EventStore, slots: Slots, config: Pick<AppConfig, 'eventLog'>) => {
        const logger = new Logger(EventFeed.name);
        return new EventFeed(
          store,
          {
            live: (event) => sseMessage(event.type, toEnvelope(event), event.position.toString()),
            stored: (event) => sseJsonMessage(event.type, envelopeJson(event), event.position.toString()),
          },
          { slots, sliceBytes: Math.floor(config.eventLog.pageMaxBytes / 4), slowReaderMs: SLOW_READER_MS },
          (error: unknown) =>
            logger.warn(`The event feed stopped: ${error instanceof Error ? error.message : String(error)}`),
        );
      },
    },
  ],
})
export class EventsModule {}
