'use strict';
// What the MCP and A2A servers add to a run: the same agent run asked for three ways, taking turns one for one, each
// timed from the request sent to the answer read in this process. (A) `POST /v1/agents/{id}/run` with
// `Prefer: wait`, the baseline; (B) a `tools/call` of the agent's tool over an open MCP session, with the MCP SDK's
// own client and its Streamable HTTP transport. An A2A message is a turn of a conversation (a thread), so it is
// set against a turn: (C) `POST …/run` with a `threadId` and `Prefer: wait`, and (D) a blocking A2A `SendMessage`
// with `@a2a-js/sdk`'s client and the `contextId` of a conversation its first message started. The model is a
// scripted Chat Completions server in this process that answers at once. The figures are B less A and D less C,
// medians (goal: < 3 ms each), with each one's median and p90.
// Usage: npm run build:bench && node bench/protocol-overhead.js [calls=300] [--store=sqlite|esdb-test-double]
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startServer, temporaryDir, storeArgument, positional, startStore, postJson, loadAverage } = require('./lib');
const { startScriptedModel } = require('./scripted-model');

const [calls = 300] = positional().map(Number);
const storeName = storeArgument();

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function viaHttp(url, agentId, tag, threadId) {
  const started = performance.now();
  const ran = await fetch(`${url}/v1/agents/${agentId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'wait=30' },
    body: JSON.stringify({ task: `Answer briefly (${tag}).`, ...(threadId && { threadId }) }),
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

/** A blocking A2A message, in the conversation `contextId` (a new one without); its time and the task. */
async function viaA2a(client, tag, contextId) {
  const started = performance.now();
  const text = { content: { $case: 'text', value: `Answer briefly (${tag}).` } };
  const message = { messageId: tag, role: 1, parts: [text], ...(contextId && { contextId }) };
  const task = await client.sendMessage({ message, configuration: { returnImmediately: false } });
  if (task.status?.state !== 3) throw new Error(`task ${task.id} is in state ${task.status?.state}`);
  return { ms: performance.now() - started, task };
}

async function main() {
  const { ClientFactory } = require('@a2a-js/sdk/client');
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
    const a2a = await new ClientFactory().createFromUrl(`${server.url}/a2a/bench/`);
    // One conversation each way: a thread of the API's, and one an A2A message started.
    const thread = await postJson(server.url, '/v1/threads', { agentId: agent.id });
    const { contextId } = (await viaA2a(a2a, 'bench-run-999999')).task;
    for (let i = 0; i < 20; i++) {
      await viaHttp(server.url, agent.id, `bench-run-${900_000 + i}`);
      await viaMcp(client, 'agent_bench', `bench-run-${920_000 + i}`);
      await viaHttp(server.url, agent.id, `bench-run-${940_000 + i}`, thread.id);
      await viaA2a(a2a, `bench-run-${960_000 + i}`, contextId);
    }
    const times = { run: [], mcp: [], turn: [], a2a: [] };
    for (let i = 0; i < calls; i++) {
      times.run.push(await viaHttp(server.url, agent.id, `bench-run-${i}`));
      times.mcp.push(await viaMcp(client, 'agent_bench', `bench-run-${200_000 + i}`));
      times.turn.push(await viaHttp(server.url, agent.id, `bench-run-${400_000 + i}`, thread.id));
      times.a2a.push((await viaA2a(a2a, `bench-run-${600_000 + i}`, contextId)).ms);
    }
    for (const list of Object.values(times)) list.sort((a, b) => a - b);
    const ms = (value) => value.toFixed(2);
    const figures = (list) => `median ${ms(percentile(list, 50))} ms, p90 ${ms(percentile(list, 90))} ms`;
    const overhead = (list, baseline) => ms(percentile(list, 50) - percentile(baseline, 50));
    console.log(`service on ${storeName}, ${calls} runs each way, taking turns; ${loadAverage()}`);
    console.log(`  POST …/run, Prefer: wait:            ${figures(times.run)}`);
    console.log(`  MCP tools/call:                      ${figures(times.mcp)}`);
    console.log(`  POST …/run on a thread, Prefer: wait: ${figures(times.turn)}`);
    console.log(`  A2A SendMessage in a conversation:   ${figures(times.a2a)}`);
    console.log(`  MCP overhead: ${overhead(times.mcp, times.run)} ms a run (goal: < 3 ms)`);
    console.log(`  A2A overhead: ${overhead(times.a2a, times.turn)} ms a turn (goal: < 3 ms)`);
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
