import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** A web site for the real `http_get` tool to read: it lists the paths it was asked for and numbers each page. */
export interface CountingSite {
  url: string;
  /** The paths asked for, in order (a test may empty it). */
  fetched: string[];
  close(): void;
}

/**
 * Serves `page <path> #<n>` for any path, where n counts every page served since the site started, so a page read
 * again is told apart from the one read before.
 */
export async function startCountingSite(): Promise<CountingSite> {
  const fetched: string[] = [];
  let served = 0;
  const server = createServer((request, response) => {
    fetched.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${request.url} #${++served}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, fetched, close: () => server.close() };
}
