import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../http/id.pipe';
import { WorkflowRun } from '../workflow-run';
import { TriggerWorkflowCommand } from './trigger-workflow.command';
import { TriggerWorkflowDto } from './trigger-workflow.dto';

@Controller('v1/workflows')
export class TriggerWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** 202: the run is recorded and queued; its steps are executed in the background. */
  @Post(':workflowId/trigger')
  @HttpCode(202)
  async trigger(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Body() body: TriggerWorkflowDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowRun> {
    const run = await this.commands.execute(new TriggerWorkflowCommand(workflowId, body.input));
    void reply.header('Location', `/v1/workflows/${workflowId}/runs/${run.id}`);
    return run;
  }
}
