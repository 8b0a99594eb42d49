import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { IdParam } from '../../http/id.pipe';
import { WorkflowRunSchema } from '../workflow-run.schema';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { ReplayWorkflowRunCommand } from './replay-workflow-run.command';
import { ReplayWorkflowRunDto } from './replay-workflow-run.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class ReplayWorkflowRunController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 202 with a new run, `replayOf` naming the run replayed: the steps `fromStep` does not lead to keep their
   * recorded outputs (no model call, `reused`); `fromStep` and every step that needs it run again.
   */
  @ApiOperation({ summary: 'Replay a workflow run from a step' })
  @ApiResponse({ status: 202, type: WorkflowRunSchema, description: 'The replay is queued' })
  @ApiProblems(400, 404, 409)
  @Post(':workflowId/runs/:runId/replay')
  async replay(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @IdParam('runId', 'wfrun') runId: string,
    @Body() body: ReplayWorkflowRunDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowRun> {
    const { fromStep, input, version = 'original' } = body;
    const replay = await this.commands.execute(
      withTrace(new ReplayWorkflowRunCommand(workflowId, runId, fromStep, input, version), trace),
    );
    void reply.header('Location', `/v1/workflows/${workflowId}/runs/${replay.id}`);
    void reply.status(202);
    return replay;
  }
}
