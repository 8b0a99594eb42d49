import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { Backfill } from './backfill';
import { BackfillWorkflowCommand } from './backfill-workflow.command';
import { BackfillWorkflowDto } from './backfill-workflow.dto';
import { BackfillSchema } from './backfill.schema';

@ApiTags('workflows')
@Controller('v1/workflows')
export class BackfillWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 202: a run for each tick of the schedule in the window (at most 1,000), subject to the overlap policy and the
   * limits on runs at once, each with `trigger.scheduledFor` and `trigger.backfill`. The runs go on in the background.
   */
  @ApiOperation({ summary: "Run a schedule's ticks of a past window" })
  @ApiResponse({ status: 202, type: BackfillSchema, description: 'The ticks, each with its run or what became of it' })
  @ApiProblems(404, 409, 422)
  @Post(':workflowId/backfill')
  @HttpCode(202)
  backfill(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('workflowId', 'wf') workflowId: string,
    @Body() body: BackfillWorkflowDto,
  ): Promise<Backfill> {
    const command = new BackfillWorkflowCommand(workflowId, new Date(body.from), new Date(body.to));
    return this.commands.execute(withTrace(command, trace));
  }
}
