/** `host`, `host:port` or `[v6-address]:port`, lower case. */
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?$/;

/**
 * A comma-separated list of `host` or `host:port`, as the `http_get` tool and webhooks both take one; `variable`
 * names it in the error.
 */
export function parseAllowedHosts(raw: string | undefined, variable: string): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const hosts = raw
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  for (const host of hosts) {
    const port = host.match(/:(\d+)$/)?.[1];
    if (!HOST_PATTERN.test(host) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new Error(
        `${variable} must be a comma-separated list of host names, each optionally with :port, not "${host}"`,
      );
    }
  }
  return hosts;
}
