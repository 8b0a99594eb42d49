import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { AgentRunExecutor } from './agent-run-executor';
import { StaleRunSweeper } from './stale-run-sweeper';
import { WorkflowRunManager } from './workflow-run-manager';

/** The process managers that execute runs. */
@Module({
  imports: [AgentsModule, WorkflowsModule],
  providers: [AgentRunExecutor, StaleRunSweeper, WorkflowRunManager],
})
export class ExecutionModule {}
