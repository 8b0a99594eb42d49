/** `scheme://` and what stands before the host's last `@`: a user name, a password, or a token. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** Secrets shorter than this are not looked for: replacing them would blot out ordinary words. */
const SHORTEST_SECRET = 8;

export const REDACTED = '***';

/**
 * Takes secrets out of a text before it is stored: credentials in URLs, and every configured secret (provider keys,
 * API keys) wherever it appears. Error texts of providers and tools pass through it on their way into the log.
 */
export class Redaction {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string | undefined>) {
    const long = [...new Set(secrets)].filter((s): s is string => s !== undefined && s.length >= SHORTEST_SECRET);
    // A longer secret may contain a shorter one: it goes first.
    this.secrets = long.sort((a, b) => b.length - a.length);
  }

  apply(text: string): string {
    let redacted = withoutUrlCredentials(text);
    for (const secret of this.secrets) redacted = redacted.split(secret).join(REDACTED);
    return redacted;
  }
}

export function withoutUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
}

/** The parts of the configuration that hold secrets (structural, so that this file imports no configuration). */
export interface SecretsConfig {
  providers: { openai: { apiKey?: string }; anthropic: { apiKey?: string }; openaiCompatible: { apiKey?: string } };
  access: { keys: string[]; readKeys: string[]; metricsToken?: string };
  webhooks: { secretKey?: string };
  /** Optional: configurations built before subjects (tests) leave it out. */
  subjects?: { dataKeySecret?: string };
}

/**
 * Every secret of the configuration a text may quote: the providers' keys, the API keys, the metrics token and the
 * webhooks' key. Run records and exported spans are redacted with the same list.
 */
export function configuredSecrets({ providers, access, webhooks, subjects }: SecretsConfig): Array<string | undefined> {
  const { openai, anthropic, openaiCompatible } = providers;
  return [
    openai.apiKey,
    anthropic.apiKey,
    openaiCompatible.apiKey,
    ...access.keys,
    ...access.readKeys,
    access.metricsToken,
    webhooks.secretKey,
    subjects?.dataKeySecret,
  ];
}
