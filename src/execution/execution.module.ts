import { MemoryModule } from '../memory/memory.module';
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ThreadsModule } from '../threads/threads.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { SignalsModule } from '../signals/signals.module';
import { SignalDeliveries } from './signals/signal-deliveries';
import { StepTimers } from './workflow-runs/step-timers';
import { DatasetsModule } from '../datasets/datasets.module';
import { ScorersModule } from '../scorers/scorers.module';
import { ExperimentRunner } from './experiments/experiment-runner';
import { ItemRuns } from './experiments/item-runs';
import { ItemScores } from './experiments/item-scores';
import { LiveScorer } from './live-scoring/live-scorer';
import { ThreadExchanges } from './agent-runs/thread-exchanges';
import { AgentRunExecutor } from './agent-runs/agent-run-executor';
import { StaleRunSweeper } from './agent-runs/stale-run-sweeper';
import { AgentTreeManager } from './agent-tree/agent-tree-manager';
import { ChildRuns } from './agent-tree/child-runs';
import { RunTools } from './agent-tree/run-tools';
import { WorkflowRunManager } from './workflow-runs/workflow-run-manager';
import { WorkflowRunSlots } from './workflow-runs/workflow-run-slots';

/** The process managers that execute runs. */
@Module({
  imports: [AgentsModule, WorkflowsModule, ThreadsModule, DatasetsModule, ScorersModule, SignalsModule, MemoryModule],
  providers: [
    AgentRunExecutor,
    StaleRunSweeper,
    AgentTreeManager,
    ChildRuns,
    RunTools,
    WorkflowRunManager,
    WorkflowRunSlots,
    ThreadExchanges,
    ExperimentRunner,
    ItemRuns,
    ItemScores,
    LiveScorer,
    SignalDeliveries,
    StepTimers,
  ],
})
export class ExecutionModule {}
