import { Module } from '@nestjs/common';
import { WebhookDelivering } from './delivery/webhook-delivering';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';
import { WebhookSending } from './delivery/webhook-sending';
import { RedeliverHandler } from './manage-webhooks/redeliver.handler';
import {
  CreateWebhookHandler,
  DeleteWebhookHandler,
  RotateWebhookSecretHandler,
  UpdateWebhookHandler,
} from './manage-webhooks/webhook-commands.handler';
import { WebhooksController } from './manage-webhooks/webhooks.controller';
import { WebhookQueriesController } from './queries/webhook-queries.controller';
import { GetWebhookHandler, ListDeliveryAttemptsHandler, ListWebhooksHandler } from './queries/webhook.queries';
import { WebhooksProjection } from './queries/webhooks.projection';
import { WebhooksReadModel } from './queries/webhooks.read-model';

@Module({
  controllers: [WebhooksController, WebhookQueriesController],
  providers: [
    CreateWebhookHandler,
    UpdateWebhookHandler,
    RotateWebhookSecretHandler,
    DeleteWebhookHandler,
    RedeliverHandler,
    ListWebhooksHandler,
    GetWebhookHandler,
    ListDeliveryAttemptsHandler,
    WebhooksReadModel,
    WebhooksProjection,
    WebhookSending,
    WebhookDelivering,
    WebhookDispatcher,
  ],
})
export class WebhooksModule {}
