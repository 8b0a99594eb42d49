import { Controller, Delete, Headers, HttpCode, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { etagOf, versionsFromIfMatch } from '../../http/etag';
import { ParseIdPipe } from '../../http/id.pipe';
import { ETAG } from '../../http/openapi/fields';
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
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag last read: refused with 412 if the resource has changed since.',
  })
  @ApiResponse({
    status: 200,
    type: AgentSchema,
    headers: { ETag: { description: 'The new version, quoted', schema: ETAG } },
  })
  @ApiProblems(404, 409, 412)
  @Delete(':agentId')
  @HttpCode(200)
  async archive(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Query() { force }: ArchiveAgentQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    const agent = await this.commands.execute(
      withTrace(new ArchiveAgentCommand(agentId, versionsFromIfMatch(ifMatch), force === 'true'), trace),
    );
    void reply.header('ETag', etagOf(agent.version));
    return agent;
  }
}
