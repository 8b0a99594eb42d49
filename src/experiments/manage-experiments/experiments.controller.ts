import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ApiPreferWait, PreferWait } from '../../http/prefer-wait';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { experimentStream } from '../experiment';
import { ExperimentSchema } from '../experiment.schema';
import { ExperimentQueries } from '../queries/experiment-queries';
import { CreateExperimentCommand } from './experiment.commands';
import { CreateExperimentDto } from './experiment.dto';

@ApiTags('experiments')
@Controller('v1/experiments')
export class ExperimentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly wait: PreferWait,
    private readonly queries: ExperimentQueries,
  ) {}

  /** 202 with the queued experiment; with `Prefer: wait`, 200 once every item is run and scored. */
  @ApiOperation({ summary: "Run a dataset's items on an agent and score each answer" })
  @ApiPreferWait(ExperimentSchema, {
    ended: 'Every item was run and scored within the wait',
    pending: 'Queued, or still running',
  })
  @ApiProblems(403, 422)
  @Post()
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateExperimentDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const created = await this.commands.execute(withTrace(new CreateExperimentCommand(body), trace));
    return this.wait.answer(created, prefer, reply, {
      location: `/v1/experiments/${created.id}`,
      stream: experimentStream(created.id),
      current: () => this.queries.get(created.id),
    });
  }
}
