import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AddressPolicy, AddressRefused, addressRange } from '../../shared/address-policy';
import { HostAllowList } from '../../shared/host-allow-list';

/** A remote MCP server the address rules keep the service from connecting to. */
export class RemoteServerRefused extends Error {}

/**
 * Where remote MCP servers may be, by the rules of `http_get` and webhooks: at public addresses, or on a host listed
 * in `MCP_ALLOWED_HOSTS` for loopback, private, link-local (cloud metadata) and unique-local ones. A name is resolved
 * and every address checked before each connection; the sockets then connect only to addresses that pass the same
 * check (no second lookup can lead elsewhere: DNS rebinding).
 */
export class RemoteAddressPolicy {
  private readonly allowList: HostAllowList;
  /** Connection pools: public addresses only, and any address (allowed hosts). */
  private readonly publicOnly = new Agent({ connect: { lookup: new AddressPolicy(false).lookup() } });
  private readonly anyAddress = new Agent({ connect: { lookup: new AddressPolicy(true).lookup() } });

  constructor(allowedHosts: string[]) {
    this.allowList = new HostAllowList(allowedHosts);
  }

  /**
   * Throws `RemoteServerRefused` when `url` may not be connected to; a name that does not resolve throws the lookup's
   * error (the server may be reachable later).
   */
  async check(url: URL): Promise<void> {
    if (this.allowList.allows(url)) return;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(hostname) ? [hostname] : (await lookup(hostname, { all: true })).map((a) => a.address);
    const refused = addresses.find((address) => addressRange(address) !== 'unicast');
    if (refused !== undefined) {
      const where = refused === hostname ? '' : ` (${url.hostname})`;
      throw new RemoteServerRefused(
        `its address ${refused}${where} is a ${addressRange(refused)} address, not a public one, ` +
          `and ${url.host} is not in MCP_ALLOWED_HOSTS`,
      );
    }
  }

  /** The fetch a transport of `url` uses: its connections go only where `check` lets them. */
  fetchFor(url: URL): FetchLike {
    const dispatcher = this.allowList.allows(url) ? this.anyAddress : this.publicOnly;
    return ((input: string | URL, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher })) as unknown as FetchLike;
  }

  async close(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.anyAddress.close()]);
  }
}

/** The refusal of a connection by the address rules, wherever fetch and the transports wrapped it. */
export function refusalIn(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 6; depth++) {
    if (current instanceof RemoteServerRefused || current instanceof AddressRefused) return current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
