import { Global, Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { AgentRunExecutor } from './agent-run-executor';
import { ProcessCheckpoints } from './process-checkpoints';
import { RunEndings } from './run-endings';
import { RunFeed } from './run-feed';
import { StaleRunSweeper } from './stale-run-sweeper';
import { WorkflowRunManager } from './workflow-run-manager';

/** The process managers that execute runs, and what the run routes need of them. */
@Global()
@Module({
  imports: [AgentsModule, WorkflowsModule],
  providers: [ProcessCheckpoints, RunFeed, RunEndings, AgentRunExecutor, StaleRunSweeper, WorkflowRunManager],
  exports: [RunFeed, RunEndings],
})
export class ExecutionModule {}
