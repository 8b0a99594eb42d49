import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WorkflowRunSchema } from '../workflow-run.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import { IdParam } from '../../http/id.pipe';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { CancelWorkflowRunCommand } from './cancel-workflow-run.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class CancelWorkflowRunController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the cancelled run. */
  @ApiOperation({ summary: 'Cancel a workflow run' })
  @ApiResponse({ status: 200, type: WorkflowRunSchema })
  @ApiProblems(404, 409)
  @Post(':workflowId/runs/:runId/cancel')
  @HttpCode(200)
  cancel(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @IdParam('runId', 'wfrun') runId: string,
  ): Promise<WorkflowRun> {
    return this.commands.execute(withTrace(new CancelWorkflowRunCommand(workflowId, runId), trace));
  }
}
