import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { WebhookSending } from '../delivery/webhook-sending';
import { Webhook, WebhookChanges, webhookDecider, webhookStream, toWebhook } from '../webhook';
import { newSigningSecret } from '../webhook-secrets';
import {
  CreateWebhookCommand,
  DeleteWebhookCommand,
  RotateWebhookSecretCommand,
  UpdateWebhookCommand,
} from './webhook.command';
import { traceOf } from '../../shared/trace-context';

/** A URL webhooks may not send to is a 422 naming `url`. */
async function checkUrl(sending: WebhookSending, url: string): Promise<void> {
  const refused = await sending.policy.refusal(url);
  if (refused) throw new DomainError('unprocessable', `url ${refused}`, [{ path: 'url', message: refused }]);
}

@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly sending: WebhookSending,
  ) {}

  async execute(command: CreateWebhookCommand): Promise<Webhook & { secret: string }> {
    const { url, events, description } = command;
    await checkUrl(this.sending, url);
    const id = this.ids.newId('whk');
    const secret = newSigningSecret();
    const encryptedSecret = this.sending.secrets.seal(secret, id);
    const created = await this.actors.send(
      webhookStream(id),
      webhookDecider,
      { type: 'CreateWebhook', id, url, events: [...new Set(events)], description, encryptedSecret },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    return { ...toWebhook(created.state!), secret };
  }
}

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly sending: WebhookSending,
  ) {}

  async execute(command: UpdateWebhookCommand): Promise<Webhook> {
    const { webhookId, changes } = command;
    if (changes.url !== undefined) await checkUrl(this.sending, changes.url);
    const patch: WebhookChanges = { ...changes, ...(changes.events ? { events: [...new Set(changes.events)] } : {}) };
    const updated = await this.actors.send(
      webhookStream(webhookId),
      webhookDecider,
      { type: 'UpdateWebhook', webhookId, changes: patch },
      { correlationId: webhookId, causationId: webhookId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(updated.position);
    return toWebhook(updated.state!);
  }
}

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly sending: WebhookSending,
  ) {}

  async execute(command: RotateWebhookSecretCommand): Promise<Webhook & { secret: string }> {
    const { webhookId } = command;
    const secret = newSigningSecret();
    const rotated = await this.actors.send(
      webhookStream(webhookId),
      webhookDecider,
      { type: 'RotateWebhookSecret', webhookId, encryptedSecret: this.sending.secrets.seal(secret, webhookId) },
      { correlationId: webhookId, causationId: webhookId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(rotated.position);
    return { ...toWebhook(rotated.state!), secret };
  }
}

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: DeleteWebhookCommand): Promise<void> {
    const { webhookId } = command;
    const deleted = await this.actors.send(
      webhookStream(webhookId),
      webhookDecider,
      { type: 'DeleteWebhook', webhookId },
      { correlationId: webhookId, causationId: webhookId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(deleted.position);
  }
}
