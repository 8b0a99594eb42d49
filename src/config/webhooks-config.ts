import { integer } from '../shared/env';
import { group, integerVariable } from '../shared/settings';
import { parseAllowedHosts } from './allowed-hosts';

export interface WebhooksConfig {
  /** A delivery counts once its receiver answers 2xx within this. */
  timeoutMs: number;
  /** Hosts (`host` or `host:port`) that may be sent to over plain http, or at private addresses. */
  allowedHosts: string[];
  /** Encrypts the signing secrets in the log; unset: a key file in the data folder (one instance only). */
  secretKey?: string;
  /** The first retry's delay; it doubles at each retry (with jitter), up to an hour. */
  retryBaseMs: number;
}

/** Reads the webhook settings; a bad value throws an error naming the variable. */
export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  const secretKey = env.WEBHOOK_SECRET_KEY?.trim() || undefined;
  if (secretKey !== undefined && !/^[\x21-\x7e]{32,}$/.test(secretKey)) {
    throw new Error('WEBHOOK_SECRET_KEY must be at least 32 printable characters, without spaces');
  }
  return {
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    allowedHosts: parseAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS, 'WEBHOOK_ALLOWED_HOSTS'),
    retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 5000, 1, 3_600_000),
    ...(secretKey ? { secretKey } : {}),
  };
}

/** The webhook settings as `docs/configuration.md` lists them. */
export const WEBHOOKS_SETTINGS = group(loadWebhooksConfig, [
  integerVariable(
    'WEBHOOK_TIMEOUT_MS',
    10_000,
    1,
    600_000,
    'A webhook delivery counts once its receiver answers `2xx` within this; otherwise it is retried (see [Webhooks](api.md#webhooks)).',
  ),
  {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    meaning:
      'Comma-separated hosts (`host`, `host:port`, `[::1]:port`) webhooks may send to over plain `http`, or at loopback, private and link-local addresses. Any other webhook URL must be `https` to public addresses; checked at create and at each delivery.',
  },
  {
    name: 'WEBHOOK_SECRET_KEY',
    meaning:
      "At least 32 printable characters: the key that encrypts webhooks' signing secrets in the log (see [Security](security.md)). Set the same one on every instance. Unset: a key made at first use in `DATA_DIR/webhook-secret.key`.",
  },
  integerVariable(
    'WEBHOOK_RETRY_BASE_MS',
    5000,
    1,
    3_600_000,
    'The first retry of a failed delivery waits about this long; each next one twice as long (with jitter), at most an hour, for 24 h.',
  ),
]);
