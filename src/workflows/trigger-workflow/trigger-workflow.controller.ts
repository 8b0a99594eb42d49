import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkflowRunSchema } from '../workflow-run.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { ApiPreferWait, PreferWait } from '../../http/prefer-wait';
import { WorkflowsReadModel } from '../queries/workflows.read-model';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { workflowRunStream } from '../workflow-run/workflow-run.events';
import { TriggerWorkflowCommand } from './trigger-workflow.command';
import { TriggerWorkflowDto } from './trigger-workflow.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class TriggerWorkflowController {
  constructor(
    private readonly commands: CommandBus,
    private readonly wait: PreferWait,
    private readonly runs: WorkflowsReadModel,
  ) {}

  /**
   * 202: the run is recorded and queued; its steps are executed in the background. With `Prefer: wait=<seconds>`:
   * 200 with the run once it has ended, or 202 with the run as it stands when the time is up.
   */
  @ApiOperation({ summary: 'Trigger a workflow' })
  @ApiPreferWait(WorkflowRunSchema, {
    ended: 'The run ended within the wait',
    pending: 'The run is queued (or still going)',
  })
  @ApiProblems(404, 409)
  @Post(':workflowId/trigger')
  async trigger(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @Body() body: TriggerWorkflowDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowRun> {
    const queued = await this.commands.execute(withTrace(new TriggerWorkflowCommand(workflowId, body.input), trace));
    return this.wait.answer(queued, prefer, reply, {
      location: `/v1/workflows/${workflowId}/runs/${queued.id}`,
      stream: workflowRunStream(queued.id),
      current: () => this.runs.getRun(workflowId, queued.id) ?? queued,
    });
  }
}
