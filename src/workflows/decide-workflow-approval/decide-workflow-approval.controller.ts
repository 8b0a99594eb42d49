import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { WorkflowRunSchema } from '../workflow-run.schema';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { DecideWorkflowApprovalCommand } from './decide-workflow-approval.command';
import { DecideWorkflowApprovalDto } from './decide-workflow-approval.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class DecideWorkflowApprovalController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 202 with the run. Approve: the step's output is `data` (as JSON, and its `outputObject`) or the reason, and the
   * run goes on; reject: the run fails with `rejected`, later steps skipped. 409 `not-waiting` otherwise.
   */
  @ApiOperation({ summary: 'Approve or reject the approval step a workflow run waits at' })
  @ApiResponse({ status: 202, type: WorkflowRunSchema })
  @ApiProblems(404, 409)
  @Post(':workflowId/runs/:runId/approvals')
  @HttpCode(202)
  decide(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @IdParam('runId', 'wfrun') runId: string,
    @Body() body: DecideWorkflowApprovalDto,
  ): Promise<WorkflowRun> {
    const { decision, reason, data } = body;
    return this.commands.execute(
      withTrace(new DecideWorkflowApprovalCommand(workflowId, runId, decision, reason, data), trace),
    );
  }
}
