'use strict';
// What the MCP server adds to a run: the same agent run asked for two ways, taking turns one for one, each timed
// from the request sent to the answer read in this process. (A) `POST /v1/agents/{id}/run` with `Prefer: wait`,
// the baseline; (B) a `tools/call` of the agent's tool over an open MCP session, with the MCP SDK's own client and
// its Streamable HTTP transport. The model is a scripted Chat Completions server in this process that answers at
// once. The figure is the median of B less the median of A (goal: < 3 ms), with each one's median and p90.
// Usage: npm run build:bench && node bench/protocol-overhead.js [calls=300] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, storeArgument, positional, startStore, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [calls = 300] = positional().map(Number);
const storeName = storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function viaHttp(url, agentId, tag) {
  const started = performance.now();
  const ran = await fetch(`${url}/v1/agents/${agentId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    body: JSON.stringify({ task: `Answer briefly (${tag}).` }),
  });
  const body = await ran.json();
  if (body.status !== 'succeeded') throw new Error(`run ${body.id} is ${body.status}`);
  return performance.now() - started;
}

async function viaMcp(client, tool, tag) {
  const started = performance.now();
  const result = await client.callTool({ name: tool, arguments: { task: `Answer briefly (${tag}).` } });
  if (result.isError) throw new Error(`call ${tag} failed: ${JSON.stringify(result.content)}`);
  return performance.now() - started;
}

async function main() {
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const model = await startScriptedModel({ delayMs: 0 });
  const store = await startStore(storeName);
  const server = await startServer(join(__dirname, '..', 'dist', 'main.js'), {
    DATA_DIR: temporaryDir('bench-protocols-'),
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    ...store.env,
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    const agent = await postJson(server.url, '/v1/agents', { name: 'bench', model: 'openai-compatible/bench' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    for (let i = 0; i < 20; i++) {
      await viaHttp(server.url, agent.id, `bench-run-${900_000 + i}`);
      await viaMcp(client, 'agent_bench', `bench-run-${950_000 + i}`);
    }
    const http = [];
    const mcp = [];
    for (let i = 0; i < calls; i++) {
      http.push(await viaHttp(server.url, agent.id, `bench-run-${i}`));
      mcp.push(await viaMcp(client, 'agent_bench', `bench-run-${500_000 + i}`));
    }
    http.sort((a, b) => a - b);
    mcp.sort((a, b) => a - b);
    const ms = (value) => value.toFixed(2);
    console.log(`service on ${storeName}, ${calls} runs each way, taking turns; ${loadAverage()}`);
    console.log(`  POST …/run, Prefer: wait: median ${ms(percentile(http, 50))} ms, p90 ${ms(percentile(http, 90))} ms`);
    console.log(`  MCP tools/call:           median ${ms(percentile(mcp, 50))} ms, p90 ${ms(percentile(mcp, 90))} ms`);
    const overhead = percentile(mcp, 50) - percentile(http, 50);
    console.log(`  MCP overhead: ${ms(overhead)} ms a call (goal: < 3 ms)`);
  } finally {
    await client.close();
    await server.stop();
    await store.stop();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
