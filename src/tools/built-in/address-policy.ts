import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How a name is resolved: `dns.lookup`'s shape, always asked for every address. */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A connection `http_get` will not make, and why. */
export class AddressRefused extends Error {}

/**
 * Which addresses a host name may lead `http_get` to: public unicast ones only, unless every address is allowed
 * (`HTTP_TOOL_ALLOW_PRIVATE=true`). Loopback, private, link-local (cloud metadata), unique-local, shared and reserved
 * addresses are reached only through a URL that names them as an IP literal, which the allow-list must list too
 * (sockets connect to a literal without a lookup). IPv4-mapped IPv6 addresses count as their IPv4 one.
 */
export class AddressPolicy {
  constructor(private readonly allowPrivate = false) {}

  /** Why a name may not lead to the address, or undefined when it may. */
  refusal(address: string, hostname: string): string | undefined {
    if (this.allowPrivate) return undefined;
    const range = ipaddr.process(address).range();
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
