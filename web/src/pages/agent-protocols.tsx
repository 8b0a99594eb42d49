import { useState } from 'preact/hooks';
import { a2aPath, agentToolName } from '../../../src/shared/protocol-names';
import type { Agent } from '../api/schema';

/**
 * How to reach the agent from other tools: its name as a tool of the service's MCP server (`/mcp`), and its A2A
 * card's address, each with a snippet to copy. docs/protocols.md says more.
 */
export function AgentProtocols({ agent }: { agent: Agent }) {
  const tool = agentToolName(agent.name);
  const endpoint = `${location.origin}/mcp`;
  const config = JSON.stringify(
    { mcpServers: { workflows: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer <API key>' } } } },
    null,
    2,
  );
  const card = `${location.origin}${a2aPath(agent.name)}/.well-known/agent-card.json`;
  const a2aClient = [
    `const client = await new ClientFactory().createFromUrl('${location.origin}${a2aPath(agent.name)}/');`,
    `const task = await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER,`,
    `  parts: [{ content: { $case: 'text', value: 'Your task' } }] } });`,
  ].join('\n');
  return (
    <details class="edit" data-testid="agent-protocols">
      <summary>Use from other tools</summary>
      <dl class="facts">
        <dt>MCP tool</dt>
        <dd>
          <code data-testid="agent-mcp-tool">{tool}</code> on the MCP server at <code>{endpoint}</code>
        </dd>
        <dt>MCP client</dt>
        <dd>
          <pre data-testid="agent-mcp-config">{config}</pre>
          <CopyButton text={config} />
        </dd>
        <dt>A2A card</dt>
        <dd>
          <a href={card} data-testid="agent-a2a-card">
            {card}
          </a>
        </dd>
        <dt>A2A client</dt>
        <dd>
          <pre data-testid="agent-a2a-client">{a2aClient}</pre>
          <CopyButton text={a2aClient} />
        </dd>
      </dl>
    </details>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" class="secondary" onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
