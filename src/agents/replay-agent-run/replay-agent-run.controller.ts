import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { AgentRun } from '../agent-run/agent-run.state';
import { ApiAgentRunAnswers } from '../agent-runs.port';
import { RunAnswers } from '../run-agent/run-answer';
import { ReplayAgentRunCommand } from './replay-agent-run.command';
import { ReplayAgentRunDto } from './replay-agent-run.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class ReplayAgentRunController {
  constructor(
    private readonly commands: CommandBus,
    private readonly answers: RunAnswers,
  ) {}

  /**
   * 202 with a new run of the agent (as it is now) on the replayed run's task and context, or on those given,
   * with `replayOf` naming the replayed run; `Prefer: wait` as for a run. 404 for a run of another agent; 409 when
   * the agent is archived.
   */
  @ApiOperation({ summary: 'Replay an agent run (its task and context, or edited ones)' })
  @ApiAgentRunAnswers({
    ended: 'The new run ended within the wait',
    pending: 'The new run is started, or queued while no slot is free (or still going)',
  })
  @ApiProblems(404, 409)
  @Post(':agentId/runs/:runId/replay')
  async replay(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Body() body: ReplayAgentRunDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const queued = await this.commands.execute(
      withTrace(new ReplayAgentRunCommand(agentId, runId, body.task, body.context), trace),
    );
    return this.answers.answer(queued, prefer, reply);
  }
}
