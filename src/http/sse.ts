import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export const SSE_HEARTBEAT_MS = 15_000;
const CRLF = Buffer.from('\r\n');

/** One server-sent event as it goes on the wire. */
export function sseMessage(event: string, data: unknown, id?: string): string {
  return sseJsonMessage(event, JSON.stringify(data), id);
}

/** The same, for data already encoded as JSON (which never holds a line break: JSON escapes them in strings). */
export function sseJsonMessage(event: string, json: string, id?: string): string;
export function sseJsonMessage(event: string, json: Buffer, id?: string): Buffer;
export function sseJsonMessage(event: string, json: string | Buffer, id?: string): string | Buffer {
  const head = `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: `;
  return typeof json === 'string' ? `${head}${json}\n\n` : Buffer.concat([Buffer.from(head), json, MESSAGE_END]);
}

const MESSAGE_END = Buffer.from('\n\n');

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
      if (!this.full) this.raw.write(': heartbeat\n\n');
    }, options.heartbeatMs ?? SSE_HEARTBEAT_MS);
    this.raw.on('drain', () => this.wakeDrainWaiters());
    // Shared chunks go to the socket itself (see writeShared).
    this.raw.socket?.on('drain', () => this.wakeDrainWaiters());
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

  /**
   * Writes messages that many responses get alike: framed as an HTTP chunk once (cached on `chunk`), and written
   * straight to the socket, which saves each response its own framing and corking. Falls back to `write` while the
   * response holds output of its own not yet on the socket, so that the order stays.
   */
  writeShared(chunk: { bytes: Buffer; framed?: Buffer }): boolean {
    if (this.closed) return false;
    const socket = this.raw.socket;
    const direct = socket && this.raw.chunkedEncoding && this.raw.writableLength === socket.writableLength;
    if (!direct) return this.raw.write(chunk.bytes);
    chunk.framed ??= Buffer.concat([Buffer.from(`${chunk.bytes.length.toString(16)}\r\n`), chunk.bytes, CRLF]);
    return socket.write(chunk.framed);
  }

  /** Whether the socket holds more than it should: wait for `drained()`. */
  private get full(): boolean {
    return this.raw.writableNeedDrain || (this.raw.socket?.writableNeedDrain ?? false);
  }

  /** Resolves once the socket has taken what was buffered, or the stream is closed. */
  drained(): Promise<void> {
    if (this.closed || !this.full) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.add(resolve));
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (this.closed) return;
    this.closed = true;
    this.wakeDrainWaiters();
    // A client that stopped reading would never let a graceful end finish, and would hold the shutdown open.
    if (this.full) this.raw.destroy();
    else this.raw.end();
  }

  private wakeDrainWaiters(): void {
    for (const wake of this.drainWaiters) wake();
    this.drainWaiters.clear();
  }
}
