import { Controller, Delete, Headers, HttpCode, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkflowSchema } from '../workflow.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiIfMatchChange, versionsFromIfMatch, withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { WorkflowView } from '../workflow-view';
import { ArchiveWorkflowCommand } from './archive-workflow.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class ArchiveWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** Archives: 200 with the archived workflow and its ETag, again on a repeat; 412 when `If-Match` names another version. */
  @ApiOperation({ summary: 'Archive a workflow' })
  @ApiIfMatchChange(WorkflowSchema)
  @ApiProblems(404, 412)
  @Delete(':workflowId')
  @HttpCode(200)
  async archive(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const command = new ArchiveWorkflowCommand(workflowId, versionsFromIfMatch(ifMatch));
    return withEtag(reply, await this.commands.execute(withTrace(command, trace)));
  }
}
