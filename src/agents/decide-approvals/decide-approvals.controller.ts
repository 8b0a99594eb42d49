import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { AgentRun } from '../agent-run/agent-run.state';
import { AgentRunSchema } from '../agent-run.schema';
import { DecideApprovalsCommand } from './decide-approvals.command';
import { DecideApprovalsDto } from './decide-approvals.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class DecideApprovalsController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 202 with the run: once every pending call has a decision it is queued again and goes on (an approved call
   * runs, with `args` if given; a rejected one reaches the model as `{"rejected": true, "reason": …}`). 409
   * `not-waiting` when the run is not waiting; 422 for a `toolCallId` that is not pending.
   */
  @ApiOperation({ summary: "Approve or reject a waiting run's tool calls" })
  @ApiResponse({ status: 202, type: AgentRunSchema })
  @ApiProblems(404, 409, 422)
  @Post(':agentId/runs/:runId/approvals')
  @HttpCode(202)
  decide(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Body() body: DecideApprovalsDto,
  ): Promise<AgentRun> {
    const decisions = body.decisions.map(({ toolCallId, decision, reason, args }) => ({
      toolCallId,
      decision,
      ...(reason !== undefined && { reason }),
      ...(args !== undefined && { args }),
    }));
    return this.commands.execute(withTrace(new DecideApprovalsCommand(agentId, runId, decisions), trace));
  }
}
