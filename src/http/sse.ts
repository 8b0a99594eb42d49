import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export const SSE_HEARTBEAT_MS = 15_000;

/** A server-sent events response on the raw socket: Fastify hands it over, and the caller writes and ends it. */
export class SseWriter {
  private readonly raw: ServerResponse;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(reply: FastifyReply, onClose: () => void) {
    reply.hijack();
    this.raw = reply.raw;
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.raw.flushHeaders();
    this.heartbeat = setInterval(() => this.raw.write(': heartbeat\n\n'), SSE_HEARTBEAT_MS);
    this.raw.on('close', () => {
      this.closed = true;
      clearInterval(this.heartbeat);
      onClose();
    });
  }

  send(event: string, data: unknown): void {
    if (this.closed) return;
    this.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (this.closed) return;
    this.closed = true;
    this.raw.end();
  }
}
