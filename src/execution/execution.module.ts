import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ThreadsModule } from '../threads/threads.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { ThreadExchanges } from './thread-exchanges';
import { AgentRunExecutor } from './agent-run-executor';
import { StaleRunSweeper } from './stale-run-sweeper';
import { WorkflowRunManager } from './workflow-run-manager';
import { WorkflowRunSlots } from './workflow-run-slots';

/** The process managers that execute runs. */
@Module({
  imports: [AgentsModule, WorkflowsModule, ThreadsModule],
  providers: [AgentRunExecutor, StaleRunSweeper, WorkflowRunManager, WorkflowRunSlots, ThreadExchanges],
})
export class ExecutionModule {}
