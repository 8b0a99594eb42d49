import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

const API_KEY = 'service-api-key-0123456789';
const READ_KEY = 'service-read-key-0123456789';
const PROVIDER_KEY = 'sk-provider-key-0123456789';
const PASSWORD = 'hunter2-password';

/** Secrets reach a run only through what others answer: a provider's error and a tool's failure quoting them. */
describe('secrets in error texts', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let site: Server;
  let app: TestApp;
  const as = { authorization: `Bearer ${API_KEY}` };

  beforeAll(async () => {
    // A site that redirects to a URL with credentials and the service's own keys in it, which http_get refuses.
    site = createServer((_, response) => {
      const location = `http://admin:${PASSWORD}@elsewhere.example/?key=${API_KEY}&read=${READ_KEY}`;
      response.writeHead(302, { location }).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    model = await startScriptedOpenAIServer((body) =>
      hasToolResult(body)
        ? {
            kind: 'error',
            status: 400,
            message: `Incorrect API key ${PROVIDER_KEY} for https://proxy:${PASSWORD}@gateway.example/v1`,
          }
        : { kind: 'toolCalls', calls: [{ name: 'http_get', arguments: { url: siteUrl } }] },
    );
    app = await startTestApp({
      env: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        OPENAI_COMPATIBLE_API_KEY: PROVIDER_KEY,
        API_KEYS: API_KEY,
        API_READ_KEYS: READ_KEY,
        HTTP_TOOL_ALLOWED_HOSTS: new URL(siteUrl).host,
        MODEL_MAX_RETRIES: '0',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
    site.close();
  });

  it('are redacted before the run records them: URL credentials and the configured keys', async () => {
    const agent = await app.request(
      'POST',
      '/v1/agents',
      { name: 'fetcher', model: 'openai-compatible/m', tools: ['http_get'] },
      as,
    );
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'Fetch it' },
      {
        ...as,
        prefer: 'wait=10',
      },
    );
    expect(run.body.status).toBe('failed');
    expect(run.body.error.message).toContain('Incorrect API key *** for https://***@gateway.example/v1');
    expect(run.body.toolCalls[0].error).toBe(
      'Redirect to http://***@elsewhere.example/?key=***&read=*** is not allowed: elsewhere.example is not an allowed host',
    );
    const events = await app.request('GET', `/v1/events?stream=agentrun-${run.body.id}`, undefined, as);
    const types = events.body.events.map((event: { type: string }) => event.type);
    expect(types).toEqual(expect.arrayContaining(['AgentRunToolReturned', 'AgentRunFailed']));
    const log = JSON.stringify(events.body);
    for (const secret of [API_KEY, READ_KEY, PROVIDER_KEY, PASSWORD]) expect(log).not.toContain(secret);
  });
});
