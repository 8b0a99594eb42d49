import { Controller, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentRunSchema } from '../agent-run.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { StreamWatch } from '../../live/stream-watch';
import { AgentRun } from '../agent-run/agent-run.state';
import { agentRunStream } from '../agent-run/agent-run.events';
import { AgentsReadModel } from '../queries/agents.read-model';
import { CancelAgentRunCommand } from './cancel-agent-run.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

/** How long a cancel waits for the executing instance to confirm it before answering 202. */
export const CANCEL_WAIT_MS = 5_000;

@ApiTags('agents')
@Controller('v1/agents')
export class CancelAgentRunController {
  constructor(
    private readonly commands: CommandBus,
    private readonly watch: StreamWatch,
    private readonly runs: AgentsReadModel,
  ) {}

  /** 200 with the cancelled run; 202 with the run as it stands if its executor has not confirmed within 5 s. */
  @ApiOperation({ summary: 'Cancel an agent run' })
  @ApiResponse({ status: 200, type: AgentRunSchema, description: 'The run is cancelled' })
  @ApiResponse({
    status: 202,
    type: AgentRunSchema,
    description: 'The cancel is recorded; the run has not confirmed it yet',
  })
  @ApiProblems(404, 409)
  @Post(':agentId/runs/:runId/cancel')
  async cancel(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const requested = await this.commands.execute(withTrace(new CancelAgentRunCommand(agentId, runId), trace));
    const current = () => this.runs.getRun(agentId, runId) ?? requested;
    const { run, ended } = await this.watch.runEnding(agentRunStream(runId), current, CANCEL_WAIT_MS);
    void reply.status(ended ? 200 : 202);
    return run;
  }
}
