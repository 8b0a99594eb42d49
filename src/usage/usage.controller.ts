import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { GetUsageQuery } from './usage.queries';
import { UsageQuery } from './usage.query-params';
import { UsageReportSchema } from './usage.schema';

@ApiTags('usage')
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({
    summary: 'Runs, tokens and cost over a time window',
    description:
      'Agent runs that ended in the window, their tokens and what they cost, in total and by agent, model or day. Counted by the hour (UTC) in which each run ended.',
  })
  @ApiResponse({ status: 200, type: UsageReportSchema })
  @Get()
  get(@Query() { from, to, groupBy }: UsageQuery) {
    return this.queries.execute(new GetUsageQuery(from, to, groupBy));
  }
}
