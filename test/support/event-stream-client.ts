import { IncomingMessage, get } from 'node:http';
import { eventually } from './eventually';
import { SseMessage, parseFrame } from './sse-client';

/**
 * A server-sent events client on node:http that a test drives: it can stop reading (`pause`) to play a slow
 * subscriber, and `close` leaves no connection behind (fetch's abort leaves one that holds the server's shutdown).
 */
export class EventStreamClient {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  private buffer = '';
  private ended = false;

  private constructor(private readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.receive(chunk));
    response.on('close', () => (this.ended = true));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) =>
        resolve(new EventStreamClient(response)),
      ).on('error', reject);
    });
  }

  get status(): number | undefined {
    return this.response.statusCode;
  }

  get contentType(): string | undefined {
    return this.response.headers['content-type'];
  }

  get closedByServer(): boolean {
    return this.ended;
  }

  /** Waits until `count` messages have come, and returns them. */
  async next(count: number, ms = 5000): Promise<SseMessage[]> {
    await eventually(() => {
      if (this.messages.length < count) throw new Error(`${this.messages.length} of ${count} messages came`);
    }, ms);
    return this.messages.slice(0, count);
  }

  pause(): void {
    this.response.pause();
  }

  resume(): void {
    this.response.resume();
  }

  close(): void {
    this.response.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      if (frame.startsWith(':')) this.comments.push(frame.slice(1).trim());
      const message = parseFrame(frame);
      if (message) this.messages.push(message);
    }
  }
}
