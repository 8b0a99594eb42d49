import { Body, Controller, Headers, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentRunSchema } from '../agent.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config';
import { ParseIdPipe } from '../../http/id.pipe';
import { preferredWait } from '../../http/prefer';
import { StreamWatch } from '../../live/stream-watch';
import { AgentRun, agentRunStream } from '../agent-run';
import { AgentsReadModel } from '../queries/agents.read-model';
import { RunAgentCommand } from './run-agent.command';
import { RunAgentDto } from './run-agent.dto';
import { outputSchemaErrors } from '../create-agent/agent-definition';
import { ValidationFailed } from '../../shared/validation-failed';

@ApiTags('agents')
@Controller('v1/agents')
export class RunAgentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly watch: StreamWatch,
    private readonly runs: AgentsReadModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * 202: the run is recorded and queued; it is executed in the background. With `Prefer: wait=<seconds>`: 200
   * with the run once it has ended, or 202 with the run as it stands when the time is up.
   */
  @ApiOperation({ summary: 'Run an agent on a task' })
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      '`wait=<seconds>`: answer once the run has ended (200), or with the run as it stands when the time is up (202).',
  })
  @ApiResponse({ status: 200, type: AgentRunSchema, description: 'The run ended within the wait' })
  @ApiResponse({ status: 202, type: AgentRunSchema, description: 'The run is queued (or still going)' })
  @ApiProblems(404)
  @Post(':agentId/run')
  async run(
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Body() body: RunAgentDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const schemaErrors = outputSchemaErrors(body.outputSchema);
    if (schemaErrors.length) throw new ValidationFailed(schemaErrors);
    const queued = await this.commands.execute(
      new RunAgentCommand(agentId, body.task, body.context, body.outputSchema),
    );
    void reply.header('Location', `/v1/agents/${agentId}/runs/${queued.id}`);
    const wait = preferredWait(prefer, this.config.runs.waitMaxSeconds);
    if (wait === undefined) {
      void reply.status(202);
      return queued;
    }
    void reply.header('Preference-Applied', `wait=${wait}`);
    const current = () => this.runs.getRun(agentId, queued.id) ?? queued;
    const { run, ended } = await this.watch.runEnding(agentRunStream(queued.id), current, wait * 1000);
    void reply.status(ended ? 200 : 202);
    return run;
  }
}
