import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { A2A_VERSION_HEADER, AgentCard, SSE_HEADERS, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeys, bearerToken } from '../../access/api-keys';
import { StreamLimits, TooManyStreams } from '../../access/stream-limits';
import { Agent } from '../../agents/agent';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { DomainError } from '../../domain/decider';
import { agentCard, serviceCard } from './a2a-cards';
import { refuseProtocolRequest } from '../protocol-refusal';
import { A2aRuns } from './a2a-runs';
import { AgentTasks } from './agent-tasks';

type RpcError = (error: unknown) => unknown;

/**
 * `/a2a/{agentName}` over the SDK's JSON-RPC transports: the A2A 1.0 methods (`SendMessage`, …) and the 0.3 ones
 * (`message/send`, …), told apart by the method's name, both answered by the agent's AgentTasks. A streaming
 * method answers as server-sent events (`data: <JSON-RPC response>`), each stream counted against its client's
 * `SSE_MAX_STREAMS_PER_KEY` and ended when the service stops.
 */
@Injectable()
export class A2aEndpoint implements BeforeApplicationShutdown {
  private readonly open = new Set<AbortController>();

  constructor(
    private readonly agents: AgentsReadModel,
    private readonly runs: A2aRuns,
    private readonly keys: ApiKeys,
    private readonly limits: StreamLimits,
  ) {}

  /** The agent's card as JSON, with the 0.3 card's top-level address beside the 1.0 interfaces for older clients. */
  agentCard(agentName: string, request: FastifyRequest): unknown {
    const card = agentCard(this.activeAgent(agentName), originOf(request), !this.keys.open);
    const url = card.supportedInterfaces[0].url;
    return { ...(AgentCard.toJSON(card) as object), url, protocolVersion: '0.3', preferredTransport: 'JSONRPC' };
  }

  serviceCard(request: FastifyRequest): unknown {
    const agents: Agent[] = [];
    for (let after = '', page; (page = this.agents.list({ status: 'active' }, after, 500)).items.length;) {
      for (const item of page.items) {
        const agent = this.agents.get(item.id);
        if (agent) agents.push(agent);
      }
      if (!page.nextCursor) break;
      after = page.items[page.items.length - 1].id;
    }
    return AgentCard.toJSON(serviceCard(agents, originOf(request), !this.keys.open));
  }

  async handle(agentName: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const agent = this.activeAgent(agentName);
    const body = request.body as { id?: unknown; method?: unknown } | null;
    const id = body?.id ?? null;
    const legacy = typeof body?.method === 'string' && isLegacyJsonRpcMethod(body.method);
    const mapError: RpcError = legacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    const abort = new AbortController();
    reply.raw.once('close', () => abort.abort());
    const caller = { origin: originOf(request), keysOn: !this.keys.open, mayWrite: this.mayWrite(request) };
    const tasks = new AgentTasks(agent, this.runs, { ...caller, signal: abort.signal });
    const header = request.headers[A2A_VERSION_HEADER.toLowerCase()];
    const requestedVersion = legacy ? '0.3' : ((Array.isArray(header) ? header[0] : header) ?? '1.0');
    const context = new ServerCallContext({ requestedVersion });
    try {
      validateVersion(requestedVersion, await tasks.getAgentCard(), 'JSONRPC');
    } catch (error) {
      return void reply.send({ jsonrpc: '2.0', id, error: mapError(error) });
    }
    const transport = legacy ? new LegacyJsonRpcTransportHandler(tasks) : new JsonRpcTransportHandler(tasks);
    const answer = await transport.handle(body ?? {}, context);
    if (!(Symbol.asyncIterator in answer)) return void reply.send(answer);
    await this.stream(answer, { request, reply, abort, id, mapError });
  }

  beforeApplicationShutdown(): void {
    for (const abort of this.open) abort.abort();
  }

  private async stream(
    answer: AsyncGenerator<unknown, void, undefined>,
    { request, reply, abort, id, mapError }: StreamPlace,
  ): Promise<void> {
    let first: IteratorResult<unknown, void>;
    try {
      // An error before the first event (an unknown task) is a plain JSON answer, as the SDK's own adapters give.
      first = await answer.next();
    } catch (error) {
      return void reply.send({ jsonrpc: '2.0', id, error: mapError(error) });
    }
    let release: () => void;
    try {
      release = this.limits.acquire(request);
    } catch (error) {
      abort.abort();
      await answer.return(undefined);
      if (!(error instanceof TooManyStreams)) throw error;
      const refusal = { status: 429, slug: 'too-many-streams', code: -32600, message: error.message };
      return refuseProtocolRequest(request, reply, refusal);
    }
    this.open.add(abort);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, SSE_HEADERS);
    raw.flushHeaders();
    try {
      for (let next = first; !next.done && !abort.signal.aborted; next = await answer.next()) {
        raw.write(formatSSEEvent(next.value));
      }
    } catch (error) {
      if (!abort.signal.aborted) raw.write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(error) }));
    } finally {
      this.open.delete(abort);
      release();
      raw.end();
      // A stream left early (the client went away): the task's generator stops following the run.
      await answer.return(undefined).catch(() => undefined);
    }
  }

  private activeAgent(name: string): Agent {
    const agent = this.agents.activeAgentNamed(name);
    if (!agent) throw new DomainError('not_found', `There is no active agent named ${name}`);
    return agent;
  }

  private mayWrite(request: FastifyRequest): boolean {
    if (this.keys.open) return true;
    const token = bearerToken(request.headers.authorization);
    return token !== undefined && this.keys.accessOf(token) === 'write';
  }
}

interface StreamPlace {
  request: FastifyRequest;
  reply: FastifyReply;
  abort: AbortController;
  id: unknown;
  mapError: RpcError;
}

/** Where the client reached the service: cards give absolute addresses (behind a proxy, with TRUST_PROXY set). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
