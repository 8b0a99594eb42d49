import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentDirectory } from '../agents/agent-directory.port';
import { ValidationFailed } from '../shared/validation-failed';
import { ScoresQuery } from './scores.query-params';
import { ScoresReadModel } from './scores.read-model';
import { ScoresReportSchema } from './scores.schema';

@ApiTags('scores')
@Controller('v1/scores')
export class ScoresController {
  constructor(
    private readonly readModel: ScoresReadModel,
    private readonly agents: AgentDirectory,
  ) {}

  @ApiOperation({
    summary: 'Live scores of runs over a window of days',
    description:
      "The scores agents' `scorers` gave their runs: how many, their mean, least and greatest, by agent and scorer, and by day with `groupBy=day`.",
  })
  @ApiResponse({ status: 200, type: ScoresReportSchema })
  @Get()
  get(@Query() { agent, scorer, from, to, groupBy }: ScoresQuery): ScoresReportSchema {
    for (const [path, day] of [
      ['from', from],
      ['to', to],
    ] as const) {
      if (day !== undefined && !dayExists(day))
        throw new ValidationFailed([{ path, message: `${path} is not a date that exists: "${day}"` }]);
    }
    if (from !== undefined && to !== undefined && from >= to) {
      throw new ValidationFailed([{ path: 'to', message: 'to must be a later day than from' }]);
    }
    const filter = { agentId: agent, scorer, fromDay: from ?? '0000-01-01', toDay: to ?? '9999-12-31' };
    const scores = this.readModel.sums(filter, groupBy === 'day');
    return {
      from: from ?? null,
      to: to ?? null,
      groupBy: groupBy ?? null,
      // The sums are kept by agent id: a renamed agent's scores show under its name now.
      scores: scores.map((sums) => ({ ...sums, agentName: this.agents.nameOf(sums.agentId) ?? null })),
    };
  }
}

function dayExists(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date)).getUTCDate() === date && month >= 1 && month <= 12;
}
