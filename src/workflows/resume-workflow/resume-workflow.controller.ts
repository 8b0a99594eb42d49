import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { WorkflowView } from '../workflow-view';
import { ResumeWorkflowCommand } from './resume-workflow.command';

@Controller('v1/workflows')
export class ResumeWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the whole workflow, active again; idempotent. */
  @Post(':workflowId/resume')
  @HttpCode(200)
  resume(@Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string): Promise<WorkflowView> {
    return this.commands.execute(new ResumeWorkflowCommand(workflowId));
  }
}
