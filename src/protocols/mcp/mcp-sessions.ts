import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ApiKeys, bearerToken } from '../../access/api-keys';
import { StreamLimits, TooManyStreams, clientOf } from '../../access/stream-limits';
import { refuseProtocolRequest } from '../protocol-refusal';
import { McpCatalogue } from './mcp-catalogue';
import { McpCall, McpToolCalls } from './mcp-tool-calls';

/** A session no request has used for this long is closed (its client starts a new one, as the protocol says). */
const IDLE_MS = 60 * 60 * 1000;
/** Sessions one client (key, or address without keys) may hold open; past it an `initialize` is refused. */
const SESSIONS_PER_CLIENT = 100;
const NO_SESSION = 'No session: send an initialize request first, then its Mcp-Session-Id with each request';
const TOO_MANY_SESSIONS = `At most ${SESSIONS_PER_CLIENT} open sessions per key: end one (DELETE /mcp) first`;

interface Session {
  transport: StreamableHTTPServerTransport;
  client: string;
  usedAt: number;
  /** Its requests whose answers are open (its own event stream, calls in progress): it is not idle meanwhile. */
  open: number;
}

const INSTRUCTIONS =
  'Each tool runs an agent (agent_<name>: a task, optional context and threadId) or a workflow (workflow_<name>) ' +
  'of this service and answers with the run’s output. A run that waits for a person’s approval answers at once ' +
  'with an error that says where to decide it.';

/**
 * The MCP server's sessions (Streamable HTTP): one transport and one protocol server each, in this instance's
 * memory. A request for a session this instance does not hold (another instance's, or one closed) is a 404, which
 * tells the client to start a new session. A session belongs to the key that opened it.
 */
@Injectable()
export class McpSessions implements BeforeApplicationShutdown {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper = setInterval(() => this.closeIdle(), 60_000).unref();

  constructor(
    private readonly catalogue: McpCatalogue,
    private readonly calls: McpToolCalls,
    private readonly keys: ApiKeys,
    private readonly limits: StreamLimits,
  ) {}

  /** Answers one request to `/mcp` on the raw response (the transport writes JSON or an event stream). */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const unacceptable = acceptProblem(request);
    if (unacceptable) return refuse(request, reply, 406, 'not-acceptable', ErrorCode.ConnectionClosed, unacceptable);
    const client = clientOf(request, this.keys);
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    let opened = false;
    if (sessionId !== undefined && session?.client !== client)
      return refuse(
        request,
        reply,
        404,
        'session-not-found',
        -32001,
        'Session not found: start a new one with initialize',
      );
    if (!session) {
      if (request.method !== 'POST' || !isInitializeRequest(request.body))
        return refuse(request, reply, 400, 'no-session', ErrorCode.InvalidRequest, NO_SESSION);
      if (this.countOf(client) >= SESSIONS_PER_CLIENT)
        return refuse(request, reply, 429, 'too-many-sessions', ErrorCode.InvalidRequest, TOO_MANY_SESSIONS);
      session = this.open(client, this.mayCall(request));
      opened = true;
    }
    const used = session;
    used.usedAt = Date.now();
    used.open++;
    reply.raw.once('close', () => {
      used.open--;
      used.usedAt = Date.now();
    });
    let release: (() => void) | undefined;
    if (streams(request)) {
      try {
        release = this.limits.acquire(request);
      } catch (error) {
        if (error instanceof TooManyStreams)
          return refuse(request, reply, 429, 'too-many-streams', ErrorCode.InvalidRequest, error.message);
        throw error;
      }
      reply.raw.once('close', release);
    }
    reply.hijack();
    await session.transport.handleRequest(request.raw, reply.raw, request.body);
    // An initialize the transport refused (a wrong Accept header, say) made no session: nothing of it is kept.
    if (opened && !session.transport.sessionId) await session.transport.close();
  }

  beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    return this.closeAll();
  }

  private mayCall(request: FastifyRequest): boolean {
    if (this.keys.open) return true;
    const token = bearerToken(request.headers.authorization);
    return token !== undefined && this.keys.accessOf(token) === 'write';
  }

  private open(client: string, mayCall: boolean): Session {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
    });
    const session: Session = { transport, client, usedAt: Date.now(), open: 0 };
    const server = this.serverFor(transport, mayCall);
    const stopListening = this.catalogue.onChange(() => void server.sendToolListChanged().catch(() => undefined));
    transport.onclose = () => {
      stopListening();
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    void server.connect(transport);
    return session;
  }

  private serverFor(transport: StreamableHTTPServerTransport, mayCall: boolean): Server {
    const server = new Server(
      { name: 'workflows-agents-service', version: '0.1.0' },
      { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.catalogue.tools() }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      if (!mayCall)
        throw new McpError(
          ErrorCode.InvalidRequest,
          'This API key may only read: it may list the tools, not call them',
        );
      const { name, arguments: args = {}, _meta } = request.params;
      const entry = this.catalogue.find(name);
      if (!entry)
        throw new McpError(ErrorCode.InvalidParams, `There is no tool ${name}: list the tools for their names`);
      const token = _meta?.progressToken;
      const progress: McpCall['progress'] =
        token === undefined
          ? undefined
          : (done, message, total) =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: done, message, ...(total !== undefined && { total }) },
              });
      return this.calls.call(entry, args, { sessionId: transport.sessionId!, signal: extra.signal, progress });
    });
    return server;
  }

  private countOf(client: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.client === client) count++;
    return count;
  }

  private closeIdle(): void {
    const before = Date.now() - IDLE_MS;
    for (const session of this.sessions.values())
      if (session.open === 0 && session.usedAt < before) void session.transport.close().catch(() => undefined);
  }

  private async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.transport.close().catch(() => undefined)));
  }
}

/**
 * What the transport would refuse for the `Accept` header (a POST takes JSON and event streams, a GET an event
 * stream), said here first so that the refusal is problem+json as every other; undefined when it is acceptable.
 */
function acceptProblem(request: FastifyRequest): string | undefined {
  const accept = request.headers.accept ?? '';
  const needs =
    request.method === 'POST'
      ? ['application/json', 'text/event-stream']
      : request.method === 'GET'
        ? ['text/event-stream']
        : [];
  const missing = needs.filter((type) => !accept.includes(type));
  return missing.length ? `Accept must name ${needs.join(' and ')} (the MCP Streamable HTTP transport)` : undefined;
}

/** The requests whose answers stay open as event streams: the session's own stream, and tool calls (progress). */
function streams(request: FastifyRequest): boolean {
  if (request.method === 'GET') return true;
  const messages = Array.isArray(request.body) ? request.body : [request.body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'tools/call');
}

function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  slug: string,
  code: number,
  message: string,
) {
  refuseProtocolRequest(request, reply, { status, slug, code, message });
}
