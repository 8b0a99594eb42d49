import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../http/id.pipe';
import { AgentRun } from '../agent-run';
import { RunAgentCommand } from './run-agent.command';
import { RunAgentDto } from './run-agent.dto';

@Controller('v1/agents')
export class RunAgentController {
  constructor(private readonly commands: CommandBus) {}

  /** 202: the run is recorded and queued; it is executed in the background. */
  @Post(':agentId/run')
  @HttpCode(202)
  async run(
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Body() body: RunAgentDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const run = await this.commands.execute(new RunAgentCommand(agentId, body.task, body.context));
    void reply.header('Location', `/v1/agents/${agentId}/runs/${run.id}`);
    return run;
  }
}
