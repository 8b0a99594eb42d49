import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { WorkflowView } from '../workflow-view';
import { PauseWorkflowCommand } from './pause-workflow.command';

@Controller('v1/workflows')
export class PauseWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the whole workflow, now paused; idempotent. */
  @Post(':workflowId/pause')
  @HttpCode(200)
  pause(@Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string): Promise<WorkflowView> {
    return this.commands.execute(new PauseWorkflowCommand(workflowId));
  }
}
