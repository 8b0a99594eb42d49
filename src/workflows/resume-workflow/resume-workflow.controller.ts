import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WorkflowSchema } from '../workflow.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import { IdParam } from '../../http/id.pipe';
import { WorkflowView } from '../workflow-view';
import { ResumeWorkflowCommand } from './resume-workflow.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class ResumeWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the whole workflow, active again; idempotent. */
  @ApiOperation({ summary: "Resume a workflow's schedule" })
  @ApiResponse({ status: 200, type: WorkflowSchema })
  @ApiProblems(404, 409)
  @Post(':workflowId/resume')
  @HttpCode(200)
  resume(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
  ): Promise<WorkflowView> {
    return this.commands.execute(withTrace(new ResumeWorkflowCommand(workflowId), trace));
  }
}
