import { TextDecoder } from 'node:util';
import { Agent, fetch, type Response } from 'undici';
import { z } from 'zod';
import { errorMessage } from '../error-message';
import { ExecutableTool, ToolFailure } from '../executable-tool';
import { AddressPolicy, AddressRefused, Resolve } from '../../shared/address-policy';
import { defineTool } from './define-tool';
import { HostAllowList } from '../../shared/host-allow-list';

export interface HttpGetOptions {
  allowedHosts: string[];
  maxBytes: number;
  timeoutMs: number;
  /** Names may lead to loopback, private, link-local and the like (otherwise only IP literals in URLs do). */
  allowPrivate?: boolean;
  /** How names are resolved (`dns.lookup` unless a test wants otherwise). */
  resolve?: Resolve;
}

export interface HttpGetResult {
  status: number;
  contentType: string | null;
  body: string;
  /** True when the body was longer than the limit and has been cut there. */
  truncated: boolean;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const input = z.object({ url: z.string().describe('Absolute http(s) URL on one of the allowed hosts') });

export function httpGetTool(options: HttpGetOptions): ExecutableTool {
  const allowList = new HostAllowList(options.allowedHosts);
  const addresses = new AddressPolicy(options.allowPrivate);
  return defineTool({
    id: 'http_get',
    description:
      `Fetches a URL with HTTP GET and returns its status, content type and body as text. ` +
      `Only these hosts may be fetched: ${options.allowedHosts.join(', ')}.`,
    input,
    run: ({ url }, signal) => httpGet(parseUrl(url), { allowList, addresses }, options, signal),
  });
}

interface Rules {
  allowList: HostAllowList;
  addresses: AddressPolicy;
}

async function httpGet(
  start: URL,
  rules: Rules,
  options: HttpGetOptions,
  runSignal: AbortSignal,
): Promise<HttpGetResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([runSignal, timeout]);
  // Each connection resolves its host once, through the address checks, and connects to what was checked.
  const dispatcher = new Agent({ connect: { lookup: rules.addresses.lookup(options.resolve) } });
  try {
    let url = start;
    refuseUnlessAllowed(url, rules.allowList, 'Fetching');
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, { method: 'GET', redirect: 'manual', signal, dispatcher });
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return await readResult(response, options);
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new ToolFailure(`Too many redirects (more than ${MAX_REDIRECTS}) from ${start}`);
      url = new URL(location, url);
      refuseUnlessAllowed(url, rules.allowList, 'Redirect to');
    }
  } catch (error) {
    if (timeout.aborted && !runSignal.aborted) {
      throw new ToolFailure(`http_get timed out after ${options.timeoutMs} ms`);
    }
    if (runSignal.aborted) throw runSignal.reason ?? error;
    if (error instanceof ToolFailure) throw error;
    const refused = refusalIn(error);
    if (refused) throw new ToolFailure(`http_get refused: ${refused.message}`);
    throw new ToolFailure(`http_get failed: ${errorMessage(error)}`);
  } finally {
    void dispatcher.destroy();
  }
}

function refuseUnlessAllowed(url: URL, allowList: HostAllowList, what: string): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolFailure(`${what} ${url} is not allowed: only http and https URLs`);
  }
  if (!allowList.allows(url))
    throw new ToolFailure(`${what} ${url} is not allowed: ${url.host} is not an allowed host`);
}

/** The address check that failed a connection, wherever fetch wrapped it. */
function refusalIn(error: unknown): AddressRefused | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    if (current instanceof AddressRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function readResult(response: Response, { maxBytes }: HttpGetOptions): Promise<HttpGetResult> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        await reader.cancel();
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  }
  const contentType = response.headers.get('content-type');
  return { status: response.status, contentType, body: decoder(contentType).decode(Buffer.concat(chunks)), truncated };
}

function decoder(contentType: string | null): TextDecoder {
  const charset = contentType?.match(/charset="?([^";\s]+)/i)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ToolFailure(`"${raw}" is not an absolute URL`);
  }
}
