import { Body, Controller, Headers, Param, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentRunSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../http/id.pipe';
import { AgentRun } from '../agent-run/agent-run.state';
import { RunAgentCommand } from './run-agent.command';
import { RunAgentDto } from './run-agent.dto';
import { PREFER_WAIT_HEADER, RunAnswers, checkRunSchema } from './run-answer';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class RunAgentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly answers: RunAnswers,
  ) {}

  /**
   * 202: the run is recorded and executed in the background: `running` when a run slot of this instance was free
   * (queued and started in one write), else `queued`. With `Prefer: wait=<seconds>`: 200
   * with the run once it has ended, or 202 with the run as it stands when the time is up. With `threadId`, the
   * run continues the thread's conversation: 422 for a thread that does not exist, 409 for one of another agent
   * or archived.
   */
  @ApiOperation({ summary: 'Run an agent on a task' })
  @ApiHeader(PREFER_WAIT_HEADER)
  @ApiResponse({ status: 200, type: AgentRunSchema, description: 'The run ended within the wait' })
  @ApiResponse({
    status: 202,
    type: AgentRunSchema,
    description: 'The run is started, or queued while no slot is free (or still going)',
  })
  @ApiProblems(404, 409, 422)
  @Post(':agentId/run')
  async run(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Body() body: RunAgentDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    await checkRunSchema(body.outputSchema);
    const queued = await this.commands.execute(
      withTrace(new RunAgentCommand(agentId, body.task, body.context, body.outputSchema, body.threadId), trace),
    );
    return this.answers.answer(queued, prefer, reply);
  }
}
