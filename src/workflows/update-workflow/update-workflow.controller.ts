import { Body, Controller, Headers, HttpCode, Patch, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkflowPatchSchema, WorkflowSchema } from '../workflow.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiIfMatchChange, versionsFromIfMatch, withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { WorkflowView } from '../workflow-view';
import { UpdateWorkflowCommand } from './update-workflow.command';
import { checkWorkflowPatch } from './update-workflow.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class UpdateWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * A JSON Merge Patch (`application/merge-patch+json` or `application/json`): 200 with the whole workflow and
   * its new ETag; 412 when `If-Match` names another version; 409 when archived; 422 when a step names no agent.
   */
  @ApiOperation({ summary: 'Change a workflow (JSON Merge Patch)' })
  @ApiIfMatchChange(WorkflowSchema)
  @ApiBody({ type: WorkflowPatchSchema })
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiProblems(404, 409, 412, 422)
  @Patch(':workflowId')
  @HttpCode(200)
  async update(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const versions = versionsFromIfMatch(ifMatch);
    const command = new UpdateWorkflowCommand(workflowId, checkWorkflowPatch(body), versions);
    return withEtag(reply, await this.commands.execute(withTrace(command, trace)));
  }
}
