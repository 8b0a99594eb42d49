import { Body, Controller, Headers, HttpCode, Param, Patch, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentPatchSchema, AgentSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { etagOf, versionsFromIfMatch } from '../../http/etag';
import { ParseIdPipe } from '../../http/id.pipe';
import { ETAG } from '../../http/openapi/fields';
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
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag last read: refused with 412 if the resource has changed since.',
  })
  @ApiBody({ type: AgentPatchSchema })
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiResponse({
    status: 200,
    type: AgentSchema,
    headers: { ETag: { description: 'The new version, quoted', schema: ETAG } },
  })
  @ApiProblems(404, 409, 412)
  @Patch(':agentId')
  @HttpCode(200)
  async update(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    const versions = versionsFromIfMatch(ifMatch);
    const agent = await this.commands.execute(
      withTrace(new UpdateAgentCommand(agentId, checkAgentPatch(body), versions), trace),
    );
    void reply.header('ETag', etagOf(agent.version));
    return agent;
  }
}
