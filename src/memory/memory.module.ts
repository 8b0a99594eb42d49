import { Module } from '@nestjs/common';
import { MemoryExpiry } from './memory-expiry';
import { MemoryProjection } from './queries/memory.projection';
import { MemoryQueriesController } from './queries/memory-queries.controller';
import {
  GetMemoryHandler,
  ListMemoryHandler,
  ListNamespacesHandler,
  MemoryHistoryHandler,
  SearchMemoryHandler,
} from './queries/memory.queries';
import { MemoryReadModel } from './queries/memory.read-model';
import { MemorySearch } from './queries/memory-search';
import { MemoryVectors } from './semantic/memory-vectors';
import { DeleteMemoryHandler, PutMemoryHandler } from './write-memory/memory-write.handlers';
import { MemoryWritesController } from './write-memory/memory-writes.controller';

/** Memory: JSON items by namespace and key, every version kept, searched by their words and, with an embedding model, by meaning (docs/memory.md). */
@Module({
  controllers: [MemoryQueriesController, MemoryWritesController],
  providers: [
    PutMemoryHandler,
    DeleteMemoryHandler,
    GetMemoryHandler,
    ListMemoryHandler,
    ListNamespacesHandler,
    MemoryHistoryHandler,
    SearchMemoryHandler,
    MemoryReadModel,
    MemoryProjection,
    MemoryExpiry,
    MemoryVectors,
    MemorySearch,
  ],
  exports: [MemoryReadModel, MemorySearch],
})
export class MemoryModule {}
