import { Socket, connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** A client that writes bytes as it likes: for slow, broken or abandoned requests. */
export class RawClient {
  private received = Buffer.alloc(0);
  private closed: Promise<void>;
  readonly socket: Socket;

  private constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => (this.received = Buffer.concat([this.received, chunk])));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  static async open(url: string): Promise<RawClient> {
    const client = new RawClient(Number(new URL(url).port));
    await new Promise<void>((resolve) => client.socket.once('connect', () => resolve()));
    return client;
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Resolves when the server has closed the connection (or after `ms`), with every response it sent. */
  async responses(ms = 5000): Promise<RawResponse[]> {
    await Promise.race([this.closed, new Promise((resolve) => setTimeout(resolve, ms))]);
    return parseResponses(this.received.toString('utf8'));
  }

  /** Resolves once `count` whole responses arrived (or after `ms`). */
  async waitForResponses(count: number, ms = 5000): Promise<RawResponse[]> {
    const deadline = Date.now() + ms;
    while (parseResponses(this.received.toString('utf8')).length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return parseResponses(this.received.toString('utf8'));
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    const bodyText = Buffer.from(rest.slice(end + 4), 'utf8')
      .subarray(0, length)
      .toString('utf8');
    if (Buffer.byteLength(bodyText) < length) break;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: bodyText ? JSON.parse(bodyText) : undefined,
    });
    rest = rest.slice(end + 4 + bodyText.length);
  }
  return responses;
}
