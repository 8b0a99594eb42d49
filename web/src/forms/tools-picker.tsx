import type { Tool } from '../api/schema';
import { agentNamedBy } from './agent-tools';

/** The tools an agent may call and which of them wait for a person's approval, as the API takes them. */
export interface ToolChoice {
  tools: string[];
  approvalRequired: string[];
}

interface ToolGroup {
  title: string;
  /** An MCP server's name: its tools can be approved all at once by `mcp:<server>/*`. */
  server?: string;
  tools: Array<Pick<Tool, 'id' | 'description'>>;
}

/**
 * The tools by where they come from: the built-in ones, then each MCP server's, then any the list no longer has.
 * Other agents (`agent:<name>`) are chosen apart, in the sub-agents fieldset.
 */
export function toolGroups(available: Tool[], chosen: string[]): ToolGroup[] {
  const builtIn: ToolGroup = { title: 'Built-in', tools: [] };
  const servers = new Map<string, ToolGroup>();
  for (const tool of available) {
    const server = /^mcp:([^/]+)\//.exec(tool.id)?.[1];
    if (!server) {
      builtIn.tools.push(tool);
      continue;
    }
    let group = servers.get(server);
    if (!group) servers.set(server, (group = { title: `MCP server ${server}`, server, tools: [] }));
    group.tools.push(tool);
  }
  const known = new Set(available.map((tool) => tool.id));
  const missing = chosen
    .filter((id) => !known.has(id) && agentNamedBy(id) === undefined)
    .map((id) => ({ id, description: 'Not offered now' }));
  const groups = [builtIn, ...servers.values()];
  if (missing.length)
    groups.push({ title: 'Chosen but not offered now (e.g. its MCP server is down)', tools: missing });
  return groups.filter((group) => group.tools.length > 0);
}

function toggled(list: string[], id: string, on: boolean): string[] {
  return on ? (list.includes(id) ? list : [...list, id]) : list.filter((entry) => entry !== id);
}

/** Checkboxes for the tools an agent may call, and beside each chosen one whether its calls need approval. */
export function ToolsPicker({
  available,
  choice,
  onChange,
}: {
  available: Tool[];
  choice: ToolChoice;
  onChange: (choice: ToolChoice) => void;
}) {
  const { tools, approvalRequired } = choice;
  const groups = toolGroups(available, tools);
  const pick = (id: string, on: boolean) =>
    onChange({
      tools: toggled(tools, id, on),
      approvalRequired: on ? approvalRequired : toggled(approvalRequired, id, false),
    });
  const approve = (rule: string, on: boolean) =>
    onChange({ tools, approvalRequired: toggled(approvalRequired, rule, on) });
  return (
    <fieldset>
      <legend>Tools</legend>
      <p class="hint">
        The tools the agent may call. A tool marked “needs approval” waits, at each call, until a person approves or
        denies it.
      </p>
      {groups.length === 0 && <p class="muted">No tools available.</p>}
      {groups.map((group) => (
        <fieldset class="tool-group" key={group.title}>
          <legend>{group.title}</legend>
          {group.server && (
            <label class="checkbox">
              <input
                type="checkbox"
                checked={approvalRequired.includes(`mcp:${group.server}/*`)}
                onChange={(e) => approve(`mcp:${group.server}/*`, e.currentTarget.checked)}
              />{' '}
              Every call to a tool of {group.server} needs approval
            </label>
          )}
          <ul class="tool-list">
            {group.tools.map((tool) => (
              <li key={tool.id}>
                <label class="checkbox">
                  <input
                    type="checkbox"
                    checked={tools.includes(tool.id)}
                    onChange={(e) => pick(tool.id, e.currentTarget.checked)}
                  />{' '}
                  <code>{tool.id}</code> <span class="muted">{tool.description}</span>
                </label>
                {tools.includes(tool.id) && (
                  <label class="checkbox approval-choice">
                    <input
                      type="checkbox"
                      checked={approvalRequired.includes(tool.id)}
                      onChange={(e) => approve(tool.id, e.currentTarget.checked)}
                      aria-label={`${tool.id} needs approval`}
                    />{' '}
                    needs approval
                  </label>
                )}
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </fieldset>
  );
}
