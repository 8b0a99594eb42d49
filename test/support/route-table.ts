import type { FastifyInstance } from 'fastify';

export interface Route {
  method: string;
  /** e.g. `/v1/agents/:agentId/runs` */
  path: string;
}

/** Every route the app serves, read from Fastify's route tree, so routes added later are covered too. */
export function routeTable(fastify: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const paths: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (paths[depth - 1] ?? '') + match[2];
    paths[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}
