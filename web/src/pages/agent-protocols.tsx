import { useState } from 'preact/hooks';
import { agentToolName } from '../../../src/shared/protocol-names';
import type { Agent } from '../api/schema';

/**
 * How to reach the agent from other tools: its name as a tool of the service's MCP server (`/mcp`), with a client
 * configuration to copy. docs/protocols.md says more.
 */
export function AgentProtocols({ agent }: { agent: Agent }) {
  const tool = agentToolName(agent.name);
  const endpoint = `${location.origin}/mcp`;
  const config = JSON.stringify(
    { mcpServers: { workflows: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer <API key>' } } } },
    null,
    2,
  );
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
