import { Controller, Delete, Headers, HttpCode, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WorkflowSchema } from '../workflow.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { etagOf, versionsFromIfMatch } from '../../http/etag';
import { ParseIdPipe } from '../../http/id.pipe';
import { ETAG } from '../../http/openapi/fields';
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
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag last read: refused with 412 if the resource has changed since.',
  })
  @ApiResponse({
    status: 200,
    type: WorkflowSchema,
    headers: { ETag: { description: 'The new version, quoted', schema: ETAG } },
  })
  @ApiProblems(404, 412)
  @Delete(':workflowId')
  @HttpCode(200)
  async archive(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const workflow = await this.commands.execute(
      withTrace(new ArchiveWorkflowCommand(workflowId, versionsFromIfMatch(ifMatch)), trace),
    );
    void reply.header('ETag', etagOf(workflow.version));
    return workflow;
  }
}
