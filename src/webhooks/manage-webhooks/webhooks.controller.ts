import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { UnrecordedFields } from '../../idempotency/unrecorded-fields';
import { ValidationFailed } from '../../shared/validation-failed';
import { DeliveryAttemptSchema, WebhookSchema, WebhookWithSecretSchema } from '../webhook.schema';
import { CreateWebhookDto, UpdateWebhookDto } from './webhook.dto';
import {
  CreateWebhookCommand,
  DeleteWebhookCommand,
  RedeliverCommand,
  RotateWebhookSecretCommand,
  UpdateWebhookCommand,
} from './webhook.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 201 with the webhook and its signing secret, shown this once; 422 when the URL may not be sent to. A repeat
   * with the same `Idempotency-Key` answers without the secret, which is stored nowhere in plain text.
   */
  @ApiOperation({ summary: 'Create a webhook (the signing secret is shown once)' })
  @ApiResponse({ status: 201, type: WebhookWithSecretSchema })
  @ApiProblems(403, 422)
  @Post()
  @HttpCode(201)
  @UnrecordedFields('secret')
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateWebhookDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const webhook = await this.commands.execute(
      withTrace(new CreateWebhookCommand(body.url, body.events, body.description ?? null), trace),
    );
    void reply.header('Location', `/v1/webhooks/${webhook.id}`);
    return webhook;
  }

  @ApiOperation({ summary: 'Change a webhook: url, events, description, enabled' })
  @ApiResponse({ status: 200, type: WebhookSchema })
  @ApiProblems(403, 404, 422)
  @Patch(':webhookId')
  @HttpCode(200)
  update(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('webhookId', 'whk') webhookId: string,
    @Body() body: UpdateWebhookDto,
  ) {
    const { url, events, description, enabled } = body;
    const changes = Object.fromEntries(
      Object.entries({ url, events, description, enabled }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(changes).length === 0) {
      throw new ValidationFailed([
        { path: 'body', message: 'must change at least one of url, events, description, enabled' },
      ]);
    }
    return this.commands.execute(withTrace(new UpdateWebhookCommand(webhookId, changes), trace));
  }

  @ApiOperation({ summary: 'Delete a webhook (no more deliveries)' })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiProblems(403, 404)
  @Delete(':webhookId')
  @HttpCode(204)
  async remove(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('webhookId', 'whk') webhookId: string,
  ): Promise<void> {
    await this.commands.execute(withTrace(new DeleteWebhookCommand(webhookId), trace));
  }

  /** The new secret signs every delivery from now on; the old one none. */
  @ApiOperation({ summary: "Replace a webhook's signing secret (the new one is shown once)" })
  @ApiResponse({ status: 200, type: WebhookWithSecretSchema })
  @ApiProblems(403, 404)
  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  @UnrecordedFields('secret')
  rotate(@RequestTrace() trace: TraceContext | undefined, @IdParam('webhookId', 'whk') webhookId: string) {
    return this.commands.execute(withTrace(new RotateWebhookSecretCommand(webhookId), trace));
  }

  /** Sends the delivery's event again now (the receiver sees the same webhook-id) and answers the attempt. */
  @ApiOperation({ summary: 'Send a delivery again' })
  @ApiResponse({ status: 200, type: DeliveryAttemptSchema })
  @ApiProblems(400, 403, 404)
  @Post(':webhookId/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  redeliver(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('webhookId', 'whk') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    if (!/^msg_[0-9a-f]{32}$/.test(deliveryId)) {
      throw new ValidationFailed([{ path: 'deliveryId', message: 'must be msg_ followed by 32 hexadecimal digits' }]);
    }
    return this.commands.execute(withTrace(new RedeliverCommand(webhookId, deliveryId), trace));
  }
}
