import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ListQuery } from '../../http/paging';
import { DeliveryAttemptListSchema, WebhookListSchema, WebhookSchema } from '../webhook.schema';
import { GetWebhookQuery, ListDeliveryAttemptsQuery, ListWebhooksQuery } from './webhook.queries';

@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhookQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'List webhooks' })
  @ApiResponse({ status: 200, type: WebhookListSchema })
  @ApiProblems(403)
  @Get()
  async list(@Query() { limit, cursor }: ListQuery) {
    const page = await this.queries.execute(new ListWebhooksQuery(limit, cursor));
    return { webhooks: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a webhook' })
  @ApiResponse({ status: 200, type: WebhookSchema })
  @ApiProblems(403, 404)
  @Get(':webhookId')
  get(@IdParam('webhookId', 'whk') webhookId: string) {
    return this.queries.execute(new GetWebhookQuery(webhookId));
  }

  @ApiOperation({ summary: "A webhook's delivery attempts, newest first" })
  @ApiResponse({ status: 200, type: DeliveryAttemptListSchema })
  @ApiProblems(403, 404)
  @Get(':webhookId/deliveries')
  async deliveries(@IdParam('webhookId', 'whk') webhookId: string, @Query() { limit, cursor }: ListQuery) {
    const page = await this.queries.execute(new ListDeliveryAttemptsQuery(webhookId, limit, cursor));
    return { attempts: page.items, nextCursor: page.nextCursor };
  }
}
