import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { startTestApp } from '../support/test-app';

const API_KEY = 'service-api-key-0123456789';
const PROVIDER_KEY = 'sk-provider-key-0123456789';
const PASSWORD = 'hunter2-password';

/**
 * The spans exported to a collector hold the same texts as the run records (a provider's error, a tool's failure):
 * they must be redacted the same way, whatever span carries them and whichever OTLP encoding sends them.
 */
describe('secrets in exported spans', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let site: Server;
  let receiver: Server;
  let endpoint: string;
  let siteUrl: string;
  let received: Buffer[] = [];
  const as = { authorization: `Bearer ${API_KEY}` };

  beforeAll(async () => {
    // A site that redirects to a URL with a password and the service's key in it, which http_get refuses.
    site = createServer((_, response) => {
      response.writeHead(302, { location: `http://admin:${PASSWORD}@elsewhere.example/?key=${API_KEY}` }).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    // The first call fails, or the one after the tool's result (a call in a step of its own).
    model = await startScriptedOpenAIServer((body) =>
      hasToolResult(body) || JSON.stringify(body).includes('Fail at once')
        ? {
            kind: 'error',
            status: 400,
            message: `Incorrect API key ${PROVIDER_KEY} for https://user:${PASSWORD}@gateway.example/v1`,
          }
        : { kind: 'toolCalls', calls: [{ name: 'http_get', arguments: { url: siteUrl } }] },
    );
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await model.close();
    site.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => (received = []));

  it.each(['http/protobuf', 'http/json'])('are redacted in every span sent over %s', async (protocol) => {
    const app = await startTestApp({
      env: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        OPENAI_COMPATIBLE_API_KEY: PROVIDER_KEY,
        API_KEYS: API_KEY,
        HTTP_TOOL_ALLOWED_HOSTS: new URL(siteUrl).host,
        MODEL_MAX_RETRIES: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_CAPTURE_CONTENT: 'true',
      },
    });
    const agent = await app.request(
      'POST',
      '/v1/agents',
      { name: 'fetcher', model: 'openai-compatible/m', tools: ['http_get'] },
      as,
    );
    const path = `/v1/agents/${agent.body.id}/run`;
    for (const task of ['Fail at once', 'Fetch it']) {
      const run = await app.request('POST', path, { task }, { ...as, prefer: 'wait=10' });
      expect(run.body.status).toBe('failed');
    }
    // Stopping sends what the batch still holds.
    await app.close();
    // Protobuf keeps strings as they are, and JSON as well (none of these need escaping).
    const sent = Buffer.concat(received).toString('latin1');
    // The spans that carry the errors were sent, redacted.
    expect(sent).toContain('chat m');
    expect(sent).toContain('execute_tool http_get');
    expect(sent).toContain('Incorrect API key *** for https://***@gateway.example/v1');
    expect([API_KEY, PROVIDER_KEY, PASSWORD].filter((secret) => sent.includes(secret))).toEqual([]);
  });
});
