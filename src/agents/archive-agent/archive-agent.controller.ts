import { Controller, Delete, Headers, HttpCode, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ApiIfMatchChange, versionsFromIfMatch, withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { Agent } from '../agent';
import { ArchiveAgentCommand } from './archive-agent.command';
import { ArchiveAgentQuery } from './archive-agent.query-params';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class ArchiveAgentController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Archives: 200 with the archived agent and its ETag, again on a repeat; 412 when `If-Match` names another version;
   * 409 naming the workflows whose steps use it, unless `force=true`.
   */
  @ApiOperation({ summary: 'Archive an agent' })
  @ApiIfMatchChange(AgentSchema)
  @ApiProblems(404, 409, 412)
  @Delete(':agentId')
  @HttpCode(200)
  async archive(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('agentId', 'agent') agentId: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Query() { force }: ArchiveAgentQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    const command = new ArchiveAgentCommand(agentId, versionsFromIfMatch(ifMatch), force === 'true');
    return withEtag(reply, await this.commands.execute(withTrace(command, trace)));
  }
}
