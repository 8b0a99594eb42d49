import { Body, Controller, Headers, HttpCode, Patch, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentPatchSchema, AgentSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiIfMatchChange, versionsFromIfMatch, withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { Agent } from '../agent';
import { UpdateAgentCommand } from './update-agent.command';
import { checkAgentPatch } from './update-agent.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class UpdateAgentController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * A JSON Merge Patch (`application/merge-patch+json` or `application/json`): 200 with the whole agent and its
   * new ETag; 412 when `If-Match` names another version; 409 when the agent is archived or the new name is taken.
   */
  @ApiOperation({ summary: 'Change an agent (JSON Merge Patch)' })
  @ApiIfMatchChange(AgentSchema)
  @ApiBody({ type: AgentPatchSchema })
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiProblems(404, 409, 412)
  @Patch(':agentId')
  @HttpCode(200)
  async update(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    const versions = versionsFromIfMatch(ifMatch);
    const command = new UpdateAgentCommand(agentId, checkAgentPatch(body), versions);
    return withEtag(reply, await this.commands.execute(withTrace(command, trace)));
  }
}
