import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { startTestApp } from '../support/test-app';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A real OTLP/HTTP receiver (a local server in the test) takes the spans the service exports. */
describe('spans exported over OTLP/HTTP', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let receiver: Server;
  let endpoint: string;
  let received: Received[] = [];

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'Hello' }));
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await model.close();
    // The exporter keeps its connection alive.
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => (received = []));

  async function runOnce(env: Record<string, string>): Promise<string> {
    const app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, ...env } });
    const agent = await app.request('POST', '/v1/agents', { name: 'greeter', model: 'openai-compatible/m' });
    const run = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'Hi' }, { prefer: 'wait=10' });
    expect(run.body.status).toBe('succeeded');
    // Stopping sends what the batch still holds.
    await app.close();
    return run.body.id;
  }

  it('sends OTLP/JSON to <endpoint>/v1/traces with the service name and the configured headers', async () => {
    const runId = await runOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'agents-under-test',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-key',
    });
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    expect(received[0].headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer collector-key',
    });
    const resourceSpans = received.flatMap((r) => JSON.parse(r.body.toString()).resourceSpans);
    expect(resourceSpans[0].resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'agents-under-test' },
    });
    const spans = resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans));
    const names = spans.map((s: any) => s.name);
    expect(names).toEqual(expect.arrayContaining(['POST /v1/agents/:agentId/run', 'invoke_agent greeter', 'chat m']));
    const run = spans.find((s: any) => s.name === 'invoke_agent greeter');
    expect(run.attributes).toContainEqual({ key: 'app.agent_run.id', value: { stringValue: runId } });
    const post = spans.find((s: any) => s.name === 'POST /v1/agents/:agentId/run');
    expect(run.traceId).toBe(post.traceId);
  });

  it('sends protobuf by default', async () => {
    await runOnce({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/custom/traces` });
    expect(received.length).toBeGreaterThan(0);
    expect(received[0].path).toBe('/custom/traces');
    expect(received[0].headers['content-type']).toBe('application/x-protobuf');
    // Protobuf keeps strings as they are: the span names can be found in the bytes.
    const bytes = Buffer.concat(received.map((r) => r.body)).toString('latin1');
    expect(bytes).toContain('invoke_agent greeter');
    expect(bytes).toContain('gen_ai.usage.input_tokens');
  });

  it('sends nothing without an endpoint', async () => {
    await runOnce({});
    expect(received).toEqual([]);
  });
});
