/**
 * Which URLs an outbound request may reach beyond the address rules (`http_get`, webhooks): http(s) only, on a listed
 * host (`host` allows any port, `host:port` one).
 */
export class HostAllowList {
  private readonly entries: { hostname: string; port?: number }[];

  constructor(hosts: string[]) {
    this.entries = hosts.map((entry) => {
      const match = entry.toLowerCase().match(/^(.*?)(?::(\d+))?$/) as RegExpMatchArray;
      return { hostname: match[1], ...(match[2] ? { port: Number(match[2]) } : {}) };
    });
  }

  allows(url: URL): boolean {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const hostname = url.hostname.toLowerCase();
    return this.entries.some(
      (entry) => entry.hostname === hostname && (entry.port === undefined || entry.port === port),
    );
  }
}
