import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export const SSE_HEARTBEAT_MS = 15_000;

/** One server-sent event as it goes on the wire. */
export function sseMessage(event: string, data: unknown, id?: string): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A server-sent events response on the raw socket: Fastify hands it over, and the caller writes and ends it.
 * `send` says whether the socket took the message; when it did not, `drained()` waits until it does, so that a
 * client that reads slowly holds its writer back instead of piling messages up in memory.
 */
export class SseWriter {
  private readonly raw: ServerResponse;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly drainWaiters = new Set<() => void>();
  private closed = false;

  constructor(reply: FastifyReply, onClose: () => void, options: { heartbeatMs?: number } = {}) {
    reply.hijack();
    this.raw = reply.raw;
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.raw.flushHeaders();
    // A client that is not reading gets no heartbeats either: they would only add to its backlog.
    this.heartbeat = setInterval(() => {
      if (!this.raw.writableNeedDrain) this.raw.write(': heartbeat\n\n');
    }, options.heartbeatMs ?? SSE_HEARTBEAT_MS);
    this.raw.on('drain', () => this.wakeDrainWaiters());
    this.raw.on('close', () => {
      this.closed = true;
      clearInterval(this.heartbeat);
      // The client went away; the server keeps a half-closed socket open (and holds its shutdown) unless told.
      this.raw.destroy();
      this.wakeDrainWaiters();
      onClose();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Bytes written but not yet taken by the socket. */
  get bufferedBytes(): number {
    return this.raw.writableLength;
  }

  /**
   * `id` is what a client sends back as `Last-Event-ID` when it reconnects. Returns false when the message had
   * to be buffered: wait for `drained()` before sending more.
   */
  send(event: string, data: unknown, id?: string): boolean {
    return this.write(sseMessage(event, data, id));
  }

  /** Writes messages made with `sseMessage` (several in one write, for fewer system calls). */
  write(messages: string | Buffer): boolean {
    if (this.closed) return false;
    return this.raw.write(messages);
  }

  /** Resolves once the socket has taken what was buffered, or the stream is closed. */
  drained(): Promise<void> {
    if (this.closed || !this.raw.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.add(resolve));
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (this.closed) return;
    this.closed = true;
    this.wakeDrainWaiters();
    // A client that stopped reading would never let a graceful end finish, and would hold the shutdown open.
    if (this.raw.writableNeedDrain) this.raw.destroy();
    else this.raw.end();
  }

  private wakeDrainWaiters(): void {
    for (const wake of this.drainWaiters) wake();
    this.drainWaiters.clear();
  }
}
