import ipaddr from 'ipaddr.js';
import { custom } from '../shared/settings';

/** Fastify's `trustProxy`: nothing, the number of proxies in front of the service, or their addresses and CIDRs. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, which Fastify accepts in the list. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads `TRUST_PROXY`. `true` is refused: trusting every hop lets a client name any address it likes in
 * `X-Forwarded-For`, and so get a fresh rate limit with each request.
 */
export function trustProxy(env: NodeJS.ProcessEnv, name = 'TRUST_PROXY'): TrustProxy {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    throw new Error(
      `${name}=true would trust every hop, so any client could choose its address with X-Forwarded-For and ` +
        `escape the rate limit: set the number of proxies in front of the service (e.g. ${name}=1) or their ` +
        `addresses or CIDRs (e.g. ${name}=10.0.0.0/8,127.0.0.1)`,
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 100) throw new Error(`${name} must count at most 100 proxies, not ${raw}`);
    return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!RANGE_NAMES.includes(entry) && !isAddressOrCidr(entry)) {
      throw new Error(
        `${name} must be false, a number of proxies, or a comma-separated list of addresses and CIDRs ` +
          `(or ${RANGE_NAMES.join(', ')}), not "${entry}"`,
      );
    }
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const strict = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
  return strict && rest.length === 0 && (bits === undefined || ipaddr.isValidCIDR(entry));
}

/** `TRUST_PROXY` as `docs/configuration.md` lists it. */
export const TRUST_PROXY_SETTING = custom(
  {
    name: 'TRUST_PROXY',
    default: 'false',
    meaning:
      "Behind reverse proxies: their number (`1` for one proxy), or a comma-separated list of their addresses and CIDRs (`10.0.0.0/8,127.0.0.1`; also `loopback`, `linklocal`, `uniquelocal`), as Fastify's `trustProxy` takes them. The client's address (for rate limits and logs) is then read from `X-Forwarded-For` as far back as those proxies wrote it. `true` is refused: it would let any client choose its address.",
  },
  (env) => trustProxy(env),
);
