import { EverythingServer, startEverythingServer } from '../support/everything-server';
import { eventually } from '../support/eventually';
import { writeMcpServersFile } from '../support/mcp-test-servers';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { ApiResponse, request, temporaryDataDir } from '../support/test-app';

const TOKEN = 'remote-mcp-token-5f1c2a9e7d';

/**
 * Remote MCP servers for real: the service runs as a process of its own and connects to the MCP reference server
 * (`@modelcontextprotocol/server-everything`), one in Streamable HTTP mode and one in the older HTTP+SSE mode, with a
 * bearer token the servers file reads from the environment. The model is the scripted server (a test double); it
 * calls the tools it is told to in `calls`, then answers with their results.
 */
describe('remote MCP servers', () => {
  let streamable: EverythingServer;
  let legacy: EverythingServer;
  let model: ScriptedServer<ChatCompletionsBody>;
  let service: ServiceProcess;
  let log = '';
  let calls: { name: string; arguments: unknown }[] = [];

  beforeAll(async () => {
    [streamable, legacy] = await Promise.all([startEverythingServer('streamableHttp'), startEverythingServer('sse')]);
    model = await startScriptedOpenAIServer((body) =>
      hasToolResult(body)
        ? { kind: 'text', text: JSON.stringify(toolResults(body).map((result) => result.content)) }
        : { kind: 'toolCalls', calls },
    );
    const bearer = { authorization: 'Bearer ${REMOTE_MCP_TOKEN}' };
    const file = writeMcpServersFile({
      streamable: { url: streamable.url, headers: bearer },
      // By name: the allowed host's resolved loopback address is let through.
      legacy: { url: `http://localhost:${legacy.port}/sse`, headers: bearer },
      blocked: { url: `http://127.0.0.2:${streamable.port}/mcp`, headers: bearer },
    });
    const env = {
      OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
      MODEL_RETRY_BASE_DELAY_MS: '1',
      MCP_SERVERS_FILE: file,
      MCP_ALLOWED_HOSTS: '127.0.0.1,localhost',
      REMOTE_MCP_TOKEN: TOKEN,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    };
    service = await startServiceProcess(temporaryDataDir(), env, { output: (text) => (log += text) });
  }, 90_000);

  afterAll(async () => {
    await service?.kill();
    await Promise.all([streamable?.stop(), legacy?.stop(), model?.close()]);
  });

  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(service.url, method, path, body, headers);

  const listed = async (id: string) =>
    ((await api('GET', '/v1/tools')).body.tools as { id: string }[]).find((tool) => tool.id === id);

  async function createAgent(body: Record<string, unknown>): Promise<string> {
    const created = await api('POST', '/v1/agents', {
      name: `remote-${Math.random().toString(36).slice(2)}`,
      model: 'openai-compatible/test-model',
      ...body,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const run = (agentId: string): Promise<ApiResponse> =>
    api('POST', `/v1/agents/${agentId}/run`, { task: 'Echo' }, { prefer: 'wait=20' });

  it('connects over Streamable HTTP and over HTTP+SSE, and an agent gets the result of a tool of each', async () => {
    // The servers are connected in the background after start-up, so a loaded machine may be ready first.
    await eventually(async () => {
      expect(log).toMatch(/MCP server \\"streamable\\" connected over Streamable HTTP with \d+ tools/);
      expect(log).toMatch(/MCP server \\"legacy\\" connected over HTTP\+SSE with \d+ tools/);
      expect(await listed('mcp:legacy/echo')).toMatchObject({ available: true, unavailableReason: null });
    }, 20_000);
    calls = [
      { name: 'mcp_streamable_echo', arguments: { message: 'one' } },
      { name: 'mcp_legacy_echo', arguments: { message: 'two' } },
    ];
    const agentId = await createAgent({ tools: ['mcp:streamable/echo', 'mcp:legacy/echo'] });
    const ran = await run(agentId);
    expect(ran.body).toMatchObject({ status: 'succeeded', warnings: [] });
    expect(ran.body.toolCalls.map((call: { output: unknown }) => call.output)).toEqual(['Echo: one', 'Echo: two']);
  }, 30_000);

  it('refuses a loopback address that MCP_ALLOWED_HOSTS does not name, says why in GET /v1/tools, and logs it once', async () => {
    await eventually(async () => {
      expect(await listed('mcp:blocked/*')).toMatchObject({
        available: false,
        unavailableReason:
          'MCP server "blocked" is refused: its address 127.0.0.2 is a loopback address, not a public one, ' +
          `and 127.0.0.2:${streamable.port} is not in MCP_ALLOWED_HOSTS`,
      });
    }, 10_000);
    expect(log.match(/"level":40[^\n]*MCP server \\"blocked\\" is refused/g)).toHaveLength(1);
  });

  it('asks for approval of a remote tool named by mcp:<server>/*, and checks its result with the guardrails', async () => {
    calls = [{ name: 'mcp_streamable_echo', arguments: { message: 'code 4711-2023' } }];
    const agentId = await createAgent({
      tools: ['mcp:streamable/echo'],
      approvalRequired: ['mcp:streamable/*'],
      guardrails: { toolResults: [{ type: 'pattern', pattern: '\\d{4}-\\d{4}', action: 'redact' }] },
    });
    const waiting = await run(agentId);
    expect(waiting.body).toMatchObject({ status: 'waiting', pendingApprovals: [{ tool: 'mcp:streamable/echo' }] });
    const path = `/v1/agents/${agentId}/runs/${waiting.body.id}`;
    const [{ toolCallId }] = waiting.body.pendingApprovals;
    const decided = await api('POST', `${path}/approvals`, { decisions: [{ toolCallId, decision: 'approve' }] });
    expect(decided.status).toBe(202);
    await eventually(async () => expect((await api('GET', path)).body.status).toBe('succeeded'), 20_000);
    const ended = (await api('GET', path)).body;
    expect(ended.guardrails).toEqual([expect.objectContaining({ stage: 'toolResults', action: 'redact' })]);
    // The model is sent the tool's result as the guardrail left it.
    expect(toolResults(model.requests.at(-1)!).map((result) => result.content)).toEqual([
      JSON.stringify('Echo: code [redacted:pattern]'),
    ]);
  }, 30_000);

  it('fails the calls of a server that stops, lists its tools as unavailable, and uses it again once it is back', async () => {
    calls = [{ name: 'mcp_streamable_echo', arguments: { message: 'are you there' } }];
    const agentId = await createAgent({ tools: ['mcp:streamable/echo'] });
    await streamable.stop();
    const failed = await run(agentId);
    expect(failed.body.status).toBe('succeeded');
    expect(failed.body.toolCalls[0].error).toMatch(/^MCP server "streamable" /);
    await eventually(async () => {
      expect(await listed('mcp:streamable/echo')).toMatchObject({
        available: false,
        unavailableReason: expect.stringMatching(/^MCP server "streamable" (went away|cannot be reached): /),
      });
    }, 10_000);
    const whileAway = await run(agentId);
    expect(whileAway.body.warnings).toEqual([expect.stringMatching(/"mcp:streamable\/echo" is not available now/)]);
    expect(whileAway.body.toolCalls[0].error).toMatch(/^MCP server "streamable" .*; the call was not made$/);
    expect(await listed('mcp:legacy/echo')).toMatchObject({ available: true });

    await streamable.start();
    await eventually(
      async () => expect(await listed('mcp:streamable/echo')).toMatchObject({ available: true }),
      40_000,
    );
    const again = await run(agentId);
    expect(again.body.toolCalls[0]).toMatchObject({ output: 'Echo: are you there' });
  }, 70_000);

  it('never writes the token in the log of the service nor in the events', async () => {
    expect(log).toContain('MCP server');
    expect(log).not.toContain(TOKEN);
    let events = '';
    for (let after: string | undefined, page: ApiResponse; ; after = page.body.nextAfter) {
      page = await api('GET', `/v1/events?limit=200${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      if (page.body.events.length === 0) break;
      events += JSON.stringify(page.body.events);
    }
    expect(events).toContain('Echo: one');
    expect(events).not.toContain(TOKEN);
  });
});
