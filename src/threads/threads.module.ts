import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ArchiveThreadController } from './archive-thread/archive-thread.controller';
import { ArchiveThreadHandler } from './archive-thread/archive-thread.handler';
import { CreateThreadController } from './create-thread/create-thread.controller';
import { CreateThreadHandler } from './create-thread/create-thread.handler';
import { ThreadQueriesController } from './queries/thread-queries.controller';
import { GetThreadHandler, ListThreadMessagesHandler, ListThreadsHandler } from './queries/thread.queries';
import { ThreadMultitask } from './run-thread/thread-multitask';
import { ThreadsProjection } from './queries/threads.projection';
import { ThreadsReadModel } from './queries/threads.read-model';
import { RunThreadController } from './run-thread/run-thread.controller';

@Module({
  imports: [AgentsModule],
  controllers: [CreateThreadController, ArchiveThreadController, RunThreadController, ThreadQueriesController],
  providers: [
    CreateThreadHandler,
    ArchiveThreadHandler,
    ListThreadsHandler,
    GetThreadHandler,
    ListThreadMessagesHandler,
    ThreadsReadModel,
    ThreadsProjection,
    ThreadMultitask,
  ],
  exports: [ThreadsReadModel],
})
export class ThreadsModule {}
