import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/http-server';
import { problem } from '../http/problem';

/**
 * A protocol request the service refuses before the protocol's own handler sees it (no session, too many streams):
 * problem+json, as every 4xx of the service is, that carries the JSON-RPC error beside it (`jsonrpc`, `error`, `id`),
 * so that an MCP or A2A client reads it as its protocol's error.
 */
export function refuseProtocolRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: { status: number; slug: string; code: number; message: string },
): void {
  const { status, slug, code, message } = refusal;
  const id = (request.body as { id?: unknown } | null | undefined)?.id ?? null;
  const rpc = { jsonrpc: '2.0', error: { code, message }, id };
  sendProblem(reply, { ...problem(status, slug, message), ...rpc } as ReturnType<typeof problem>, request.url);
}
