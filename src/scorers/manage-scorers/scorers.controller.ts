import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { ScoreSchema, ScorerSchema } from '../scorer.schema';
import { ArchiveScorerCommand, CreateScorerCommand, ScoreAnswerCommand } from './scorer.commands';
import { CreateScorerDto, ScoreAnswerDto } from './scorer.dto';

@ApiTags('scorers')
@Controller('v1/scorers')
export class ScorersController {
  constructor(private readonly commands: CommandBus) {}

  /** 201; 409 when an active scorer has the name; 422 when a judge names no active agent. */
  @ApiOperation({ summary: 'Create a scorer: exact, contains, json_schema, rule (JSON Logic) or judge (an agent)' })
  @ApiResponse({ status: 201, type: ScorerSchema })
  @ApiProblems(403, 409, 422)
  @Post()
  @HttpCode(201)
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateScorerDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const scorer = await this.commands.execute(withTrace(new CreateScorerCommand(body), trace));
    void reply.header('Location', `/v1/scorers/${scorer.id}`);
    return scorer;
  }

  /** 200 with the archived scorer, again on a repeat; its name is free for a new scorer. */
  @ApiOperation({ summary: 'Archive a scorer (its name is free again; its scores stay tied to it)' })
  @ApiResponse({ status: 200, type: ScorerSchema })
  @ApiProblems(403, 404)
  @Post(':scorerId/archive')
  @HttpCode(200)
  archive(@RequestTrace() trace: TraceContext | undefined, @IdParam('scorerId', 'scorer') scorerId: string) {
    return this.commands.execute(withTrace(new ArchiveScorerCommand(scorerId), trace));
  }

  /**
   * 200 with the score. Nothing is recorded, but a judge's own run (marked `source: {protocol: "scorer"}`); 502
   * `judge-failed` when the judge gave no score (its agent gone, its run failed or did not end in time).
   */
  @ApiOperation({ summary: 'Score an answer now, to try a scorer' })
  @ApiResponse({ status: 200, type: ScoreSchema })
  @ApiProblems(403, 404, 502)
  @Post(':scorerId/score')
  @HttpCode(200)
  score(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('scorerId', 'scorer') scorerId: string,
    @Body() body: ScoreAnswerDto,
  ) {
    const { input = null, output = null, outputObject, expected = null, run } = body;
    const answer = { input, output, outputObject, expected, run: run as never };
    return this.commands.execute(withTrace(new ScoreAnswerCommand(scorerId, answer), trace));
  }
}
