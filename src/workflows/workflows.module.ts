import { GetWorkflowVersionHandler } from './queries/workflow-version.queries';
import { BackfillWorkflowController } from './backfill-workflow/backfill-workflow.controller';
import { BackfillWorkflowHandler } from './backfill-workflow/backfill-workflow.handler';
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { PreferWait } from '../http/prefer-wait';
import { ArchiveWorkflowController } from './archive-workflow/archive-workflow.controller';
import { ArchiveWorkflowHandler } from './archive-workflow/archive-workflow.handler';
import { CancelWorkflowRunController } from './cancel-workflow-run/cancel-workflow-run.controller';
import { CancelWorkflowRunHandler } from './cancel-workflow-run/cancel-workflow-run.handler';
import { DecideWorkflowApprovalController } from './decide-workflow-approval/decide-workflow-approval.controller';
import { DecideWorkflowApprovalHandler } from './decide-workflow-approval/decide-workflow-approval.handler';
import { CreateWorkflowController } from './create-workflow/create-workflow.controller';
import { CreateWorkflowHandler } from './create-workflow/create-workflow.handler';
import { PauseWorkflowController } from './pause-workflow/pause-workflow.controller';
import { PauseWorkflowHandler } from './pause-workflow/pause-workflow.handler';
import { WorkflowQueriesController } from './queries/workflow-queries.controller';
import {
  GetWorkflowHandler,
  GetWorkflowRunHandler,
  ListWorkflowRunsHandler,
  ListWorkflowsHandler,
} from './queries/workflow.queries';
import { WorkflowsProjection } from './queries/workflows.projection';
import { WorkflowsReadModel } from './queries/workflows.read-model';
import { ResumeWorkflowController } from './resume-workflow/resume-workflow.controller';
import { ResumeWorkflowHandler } from './resume-workflow/resume-workflow.handler';
import { SkipScheduledRunsHandler } from './scheduling/skip-scheduled-runs.handler';
import { TriggerScheduledRunsHandler } from './scheduling/trigger-scheduled-runs.handler';
import { PreparedTicks } from './scheduling/prepared-ticks';
import { WorkflowScheduler } from './scheduling/workflow-scheduler';
import { WorkflowSchedules } from './scheduling/workflow-schedules';
import { ReplayWorkflowRunController } from './replay-workflow-run/replay-workflow-run.controller';
import { ReplayWorkflowRunHandler } from './replay-workflow-run/replay-workflow-run.handler';
import { TriggerWorkflowController } from './trigger-workflow/trigger-workflow.controller';
import { TriggerWorkflowHandler } from './trigger-workflow/trigger-workflow.handler';
import { WorkflowRunOpener } from './trigger-workflow/workflow-run-opener';
import { WorkflowTriggers } from './trigger-workflow/workflow-triggers';
import { UpdateWorkflowController } from './update-workflow/update-workflow.controller';
import { UpdateWorkflowHandler } from './update-workflow/update-workflow.handler';
import { WorkflowChanges } from './workflow-changes';

import { StepTimersProjection } from './queries/step-timers.projection';
import { StepTimersReadModel } from './queries/step-timers.read-model';
import { WorkflowTrialChecks } from './workflow-trial';
import { WorkflowTrials } from './workflow-trials.port';

@Module({
  imports: [AgentsModule],
  controllers: [
    CreateWorkflowController,
    UpdateWorkflowController,
    ArchiveWorkflowController,
    TriggerWorkflowController,
    BackfillWorkflowController,
    CancelWorkflowRunController,
    ReplayWorkflowRunController,
    DecideWorkflowApprovalController,
    PauseWorkflowController,
    ResumeWorkflowController,
    WorkflowQueriesController,
  ],
  providers: [
    CreateWorkflowHandler,
    UpdateWorkflowHandler,
    WorkflowChanges,
    ArchiveWorkflowHandler,
    TriggerWorkflowHandler,
    BackfillWorkflowHandler,
    WorkflowTriggers,
    CancelWorkflowRunHandler,
    ReplayWorkflowRunHandler,
    DecideWorkflowApprovalHandler,
    WorkflowRunOpener,
    PauseWorkflowHandler,
    ResumeWorkflowHandler,
    SkipScheduledRunsHandler,
    TriggerScheduledRunsHandler,
    PreparedTicks,
    WorkflowScheduler,
    WorkflowSchedules,
    ListWorkflowsHandler,
    GetWorkflowHandler,
    GetWorkflowVersionHandler,
    ListWorkflowRunsHandler,
    GetWorkflowRunHandler,
    WorkflowsReadModel,
    WorkflowsProjection,
    StepTimersReadModel,
    StepTimersProjection,
    PreferWait,
    { provide: WorkflowTrials, useClass: WorkflowTrialChecks },
  ],
  exports: [WorkflowsReadModel, WorkflowRunOpener, WorkflowTrials, StepTimersReadModel, WorkflowTriggers],
})
export class WorkflowsModule {}
