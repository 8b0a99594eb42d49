import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/** A subscription of a URL to events of the log (see docs/api.md, "Webhooks"). */
export interface Webhook {
  id: string;
  url: string;
  /** Event types, or globs such as `AgentRun*` (`*` matches any run of characters). */
  events: string[];
  description: string | null;
  enabled: boolean;
  /** Why it was disabled by the service (failing for 24 h); null when enabled or disabled by a caller. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The webhook and its signing secret, encrypted (never in plain text in the log: docs/security.md). */
export interface WebhookAggregate extends Webhook {
  encryptedSecret: string;
  deleted: boolean;
}

export type WebhookState = WebhookAggregate | null;

export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'enabled'>>;

export type CreateWebhook = {
  type: 'CreateWebhook';
  id: string;
  url: string;
  events: string[];
  description: string | null;
  encryptedSecret: string;
};
export type UpdateWebhook = { type: 'UpdateWebhook'; webhookId: string; changes: WebhookChanges };
export type RotateWebhookSecret = { type: 'RotateWebhookSecret'; webhookId: string; encryptedSecret: string };
export type DisableFailingWebhook = {
  type: 'DisableFailingWebhook';
  webhookId: string;
  reason: string;
  failingSince: string;
};
export type DeleteWebhook = { type: 'DeleteWebhook'; webhookId: string };
export type WebhookCommand =
  CreateWebhook | UpdateWebhook | RotateWebhookSecret | DisableFailingWebhook | DeleteWebhook;

export type WebhookCreated = DomainEvent<
  'WebhookCreated',
  { id: string; url: string; events: string[]; description: string | null; encryptedSecret: string; createdAt: string }
>;
export type WebhookUpdated = DomainEvent<
  'WebhookUpdated',
  { webhookId: string; changes: WebhookChanges; updatedAt: string }
>;
export type WebhookSecretRotated = DomainEvent<
  'WebhookSecretRotated',
  { webhookId: string; encryptedSecret: string; rotatedAt: string }
>;
/** The service disabled a webhook whose deliveries had failed for 24 h. */
export type WebhookDisabled = DomainEvent<
  'WebhookDisabled',
  { webhookId: string; reason: string; failingSince: string; disabledAt: string }
>;
export type WebhookDeleted = DomainEvent<'WebhookDeleted', { webhookId: string; deletedAt: string }>;
export type WebhookEvent = WebhookCreated | WebhookUpdated | WebhookSecretRotated | WebhookDisabled | WebhookDeleted;

export const WEBHOOK_EVENT_TYPES = eventTypes<WebhookEvent>({
  WebhookCreated: true,
  WebhookUpdated: true,
  WebhookSecretRotated: true,
  WebhookDisabled: true,
  WebhookDeleted: true,
});

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: null,
  cacheActors: false,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'CreateWebhook') {
      if (state) throw new DomainError('conflict', `Webhook ${command.id} already exists`);
      const { id, url, events, description, encryptedSecret } = command;
      return [{ type: 'WebhookCreated', data: { id, url, events, description, encryptedSecret, createdAt: at } }];
    }
    if (!state || state.deleted) throw new DomainError('not_found', `Webhook ${command.webhookId} does not exist`);
    const webhookId = state.id;
    switch (command.type) {
      case 'UpdateWebhook': {
        const changes = changed(state, command.changes);
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'WebhookUpdated', data: { webhookId, changes, updatedAt: at } }];
      }
      case 'RotateWebhookSecret':
        return [
          {
            type: 'WebhookSecretRotated',
            data: { webhookId, encryptedSecret: command.encryptedSecret, rotatedAt: at },
          },
        ];
      case 'DisableFailingWebhook': {
        if (!state.enabled) return [];
        const { reason, failingSince } = command;
        return [{ type: 'WebhookDisabled', data: { webhookId, reason, failingSince, disabledAt: at } }];
      }
      case 'DeleteWebhook':
        return [{ type: 'WebhookDeleted', data: { webhookId, deletedAt: at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const { id, url, events, description, encryptedSecret, createdAt } = event.data;
        const base = { id, url, events, description, enabled: true, disabledReason: null };
        return { ...base, encryptedSecret, deleted: false, createdAt, updatedAt: createdAt };
      }
      case 'WebhookUpdated': {
        if (!state) return state;
        const { changes, updatedAt } = event.data;
        const disabledReason = changes.enabled === undefined ? state.disabledReason : null;
        return { ...state, ...changes, disabledReason, updatedAt };
      }
      case 'WebhookSecretRotated':
        return state && { ...state, encryptedSecret: event.data.encryptedSecret, updatedAt: event.data.rotatedAt };
      case 'WebhookDisabled':
        return (
          state && { ...state, enabled: false, disabledReason: event.data.reason, updatedAt: event.data.disabledAt }
        );
      case 'WebhookDeleted':
        return state && { ...state, deleted: true, updatedAt: event.data.deletedAt };
      default:
        return state;
    }
  },
};

/** The fields of a patch that differ from the webhook's. */
function changed(state: WebhookAggregate, changes: WebhookChanges): WebhookChanges {
  const result: WebhookChanges = {};
  for (const [key, value] of Object.entries(changes) as Array<[keyof WebhookChanges, unknown]>) {
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(state[key]))
      Object.assign(result, { [key]: value });
  }
  return result;
}

/** The webhook as the API shows it: never its secret. */
export function toWebhook({ encryptedSecret: _secret, deleted: _deleted, ...webhook }: WebhookAggregate): Webhook {
  return webhook;
}
