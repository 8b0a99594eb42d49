import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The envelope sent, parsed. */
  event: { id: string; type: string; position: string; stream: string; data: Record<string, unknown> };
  receivedAt: number;
}

/**
 * A webhook receiver on a loopback port: it records each request, and answers with the status `answer` gives
 * (200 by default), so a test can make it fail.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answer: (delivery: ReceivedDelivery, index: number) => number | Promise<number> = () => 200;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const delivery = { headers: request.headers, body, event: JSON.parse(body), receivedAt: Date.now() };
        const index = receiver.received.push(delivery) - 1;
        void Promise.resolve(receiver.answer(delivery, index)).then((status) => {
          response.writeHead(status).end();
        });
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    return receiver;
  }

  /** The deliveries whose signature `secret` verifies, as a receiver using `standardwebhooks` checks them. */
  verified(secret: string): ReceivedDelivery[] {
    const webhook = new Webhook(secret);
    return this.received.filter((delivery) => {
      try {
        webhook.verify(delivery.body, delivery.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
