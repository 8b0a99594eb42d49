import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { AgentRun } from '../agent-run/agent-run.state';
import { ApiAgentRunAnswers } from '../agent-runs.port';
import { RunAgentDto } from './run-agent.dto';
import { RunAnswers } from './run-answer';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class RunAgentController {
  constructor(private readonly runs: RunAnswers) {}

  /**
   * 202: the run is recorded and executed in the background: `running` when a run slot of this instance was free
   * (queued and started in one write), else `queued`. With `Prefer: wait=<seconds>`: 200
   * with the run once it has ended, or 202 with the run as it stands when the time is up. With `threadId`, the
   * run continues the thread's conversation: 422 for a thread that does not exist, 409 for one of another agent
   * or archived.
   */
  @ApiOperation({ summary: 'Run an agent on a task' })
  @ApiAgentRunAnswers({
    ended: 'The run ended within the wait',
    pending: 'The run is started, or queued while no slot is free (or still going)',
  })
  @ApiProblems(404, 409, 422)
  @Post(':agentId/run')
  async run(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @Body() body: RunAgentDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const queued = await this.runs.queue(body, () => ({ agentId, threadId: body.threadId }), trace);
    return this.runs.answer(queued, prefer, reply);
  }
}
