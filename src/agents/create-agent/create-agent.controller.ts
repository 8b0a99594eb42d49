import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Agent, pickDefinition } from '../agent';
import { ToolRegistry } from '../../tools/tool-registry';
import { checkAgentDefinition } from './agent-definition';
import { ScorerNames } from '../scorer-names.port';
import { AgentsReadModel } from '../queries/agents.read-model';
import { CreateAgentCommand } from './create-agent.command';
import { CreateAgentDto } from './create-agent.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('agents')
@Controller('v1/agents')
export class CreateAgentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly tools: ToolRegistry,
    private readonly agents: AgentsReadModel,
    private readonly scorers: ScorerNames,
  ) {}

  @ApiOperation({ summary: 'Create an agent' })
  @ApiResponse({ status: 201, type: AgentSchema })
  @ApiProblems(409)
  @Post()
  @HttpCode(201)
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateAgentDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    await checkAgentDefinition(body, { registry: this.tools, agents: this.agents, scorers: this.scorers });
    const definition = pickDefinition(body);
    const agent = await this.commands.execute(withTrace(new CreateAgentCommand(definition), trace));
    void reply.header('Location', `/v1/agents/${agent.id}`);
    return agent;
  }
}
