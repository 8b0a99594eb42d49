import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { WorkflowRun } from '../workflow-run';
import { CancelWorkflowRunCommand } from './cancel-workflow-run.command';

@Controller('v1/workflows')
export class CancelWorkflowRunController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the cancelled run. */
  @Post(':workflowId/runs/:runId/cancel')
  @HttpCode(200)
  cancel(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Param('runId', new ParseIdPipe('wfrun', 'runId')) runId: string,
  ): Promise<WorkflowRun> {
    return this.commands.execute(new CancelWorkflowRunCommand(workflowId, runId));
  }
}
