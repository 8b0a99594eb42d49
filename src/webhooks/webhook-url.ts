import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { AddressPolicy, addressRange } from '../shared/address-policy';
import { HostAllowList } from '../shared/host-allow-list';

/**
 * Where webhooks may send, by the rules of `http_get`: `https` to public addresses, or a host listed in
 * `WEBHOOK_ALLOWED_HOSTS` for plain `http` and for loopback, private and link-local addresses. A name is resolved
 * and every address checked; the connection then goes to the addresses checked (no second lookup: DNS rebinding).
 */
export class WebhookUrlPolicy {
  private readonly allowList: HostAllowList;
  /** Connection pools (kept alive between deliveries): public addresses only, and any (allowed hosts). */
  private readonly publicOnly = new Agent({ connect: { lookup: new AddressPolicy(false).lookup() } });
  private readonly anyAddress = new Agent({ connect: { lookup: new AddressPolicy(true).lookup() } });

  constructor(allowedHosts: string[]) {
    this.allowList = new HostAllowList(allowedHosts);
  }

  /** Why `raw` may not be sent to, or undefined when it may (after resolving its host). */
  async refusal(raw: string): Promise<string | undefined> {
    // URL parsing drops tabs and line breaks; a URL stored before the DTO refused them is refused here.
    if (/[\u0000-\u001f\u007f]/.test(raw)) return 'may not hold control characters (such as a line break or a tab)';
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'is not an absolute URL';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
    if (url.username || url.password) return 'may not hold a user name or password (they would be stored in the log)';
    if (this.allowList.allows(url)) return undefined;
    if (url.protocol === 'http:') return `must be https: ${url.host} is not in WEBHOOK_ALLOWED_HOSTS`;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = isIP(hostname) ? [hostname] : (await lookup(hostname, { all: true })).map((a) => a.address);
    } catch {
      return `${url.hostname} does not resolve`;
    }
    const privateOne = addresses.find((address) => addressRange(address) !== 'unicast');
    if (privateOne)
      return `${url.hostname} is at ${privateOne}, not a public address, and not in WEBHOOK_ALLOWED_HOSTS`;
    return undefined;
  }

  /** The connection pool for `url`: public addresses only, unless the URL's host is allowed. */
  dispatcherFor(url: URL): Agent {
    return this.allowList.allows(url) ? this.anyAddress : this.publicOnly;
  }

  async close(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.anyAddress.close()]);
  }
}
