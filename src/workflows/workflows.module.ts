import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CreateWorkflowController } from './create-workflow/create-workflow.controller';
import { CreateWorkflowHandler } from './create-workflow/create-workflow.handler';
import { WorkflowQueriesController } from './queries/workflow-queries.controller';
import {
  GetWorkflowHandler,
  GetWorkflowRunHandler,
  ListWorkflowRunsHandler,
  ListWorkflowsHandler,
} from './queries/workflow.queries';
import { WorkflowsProjection } from './queries/workflows.projection';
import { WorkflowsReadModel } from './queries/workflows.read-model';
import { TriggerWorkflowController } from './trigger-workflow/trigger-workflow.controller';
import { TriggerWorkflowHandler } from './trigger-workflow/trigger-workflow.handler';

@Module({
  imports: [AgentsModule],
  controllers: [CreateWorkflowController, TriggerWorkflowController, WorkflowQueriesController],
  providers: [
    CreateWorkflowHandler,
    TriggerWorkflowHandler,
    ListWorkflowsHandler,
    GetWorkflowHandler,
    ListWorkflowRunsHandler,
    GetWorkflowRunHandler,
    WorkflowsReadModel,
    WorkflowsProjection,
  ],
})
export class WorkflowsModule {}
