import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How a name is resolved: `dns.lookup`'s shape, always asked for every address. */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * The kind of an address as ipaddr.js names it ('unicast' for a public one), with the IPv4 address an IPv6 one
 * carries in its last 32 bits read as that IPv4 address: IPv4-mapped (`::ffff:127.0.0.1`, which ipaddr.js already
 * converts) and IPv4-compatible (`::127.0.0.1`, which URLs write as `[::7f00:1]` and ipaddr.js calls unicast).
 * Other forms that embed one (NAT64 `64:ff9b::/96`, 6to4, Teredo) have ranges of their own and are refused as such.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed.kind() !== 'ipv6') return parsed.range();
  const parts = (parsed as ipaddr.IPv6).parts;
  const compatible = parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1);
  if (!compatible) return parsed.range();
  return new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]).range();
}

/** A connection an outbound request (`http_get`, a webhook's delivery) will not make, and why. */
export class AddressRefused extends Error {}

/**
 * Which addresses a host name may lead an outbound request to (`http_get`, and webhooks by the same rules): public
 * unicast ones only, unless every address is allowed (`HTTP_TOOL_ALLOW_PRIVATE=true`). Loopback, private,
 * link-local (cloud metadata), unique-local, shared and reserved addresses are reached only through a URL that names
 * them as an IP literal, which the allow-list must list too (sockets connect to a literal without a lookup).
 * IPv4-mapped IPv6 addresses count as their IPv4 one.
 */
export class AddressPolicy {
  constructor(private readonly allowPrivate = false) {}

  /** Why a name may not lead to the address, or undefined when it may. */
  refusal(address: string, hostname: string): string | undefined {
    if (this.allowPrivate) return undefined;
    const range = addressRange(address);
    if (range === 'unicast') return undefined;
    return (
      `${hostname} resolves to ${address}, which is a ${range} address, not a public one ` +
      `(to reach it, list and fetch it as an IP literal, or set HTTP_TOOL_ALLOW_PRIVATE=true)`
    );
  }

  /**
   * A lookup for the sockets: it resolves the name once, refuses it if any of its addresses may not be used, and
   * hands the addresses it checked to the socket, so no second lookup can answer otherwise (DNS rebinding).
   */
  lookup(resolve: Resolve = dnsLookup as Resolve): LookupFunction {
    return (hostname, options, callback) => {
      resolve(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const why = addresses.map(({ address }) => this.refusal(address, hostname)).find(Boolean);
        if (why) return callback(new AddressRefused(why), '', 0);
        if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
  }
}
