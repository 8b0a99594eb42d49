import { integer } from '../shared/env';
import { parseAllowedHosts } from '../tools/tools-config';

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
