import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A new signing secret as Standard Webhooks spells it: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Encrypts signing secrets for the log (AES-256-GCM, the webhook's id as associated data, so a ciphertext cannot be
 * moved to another webhook), with a key derived from `WEBHOOK_SECRET_KEY` or from a key file in the data folder.
 * The log then holds no secret a reader of it could use (docs/security.md).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'workflows', 'webhook signing secrets', 32));
  }

  /** The key from `configured`, or else from `<dataDir>/webhook-secret.key`, made (mode 0600) when missing. */
  static open(configured: string | undefined, dataDir: string): SecretBox {
    if (configured) return new SecretBox(configured);
    const file = join(dataDir, 'webhook-secret.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return new SecretBox(readFileSync(file, 'utf8').trim());
  }

  seal(secret: string, webhookId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(webhookId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the ciphertext was made with another key (or altered). */
  open(sealed: string, webhookId: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
      .setAAD(Buffer.from(webhookId))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
