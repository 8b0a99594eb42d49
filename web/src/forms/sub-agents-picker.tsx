import { useEffect, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { AgentListItem } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { usePagedList } from '../components/use-paged-list';
import { agentNamedBy, agentToolId } from './agent-tools';

/** What the fieldset changes: the tools (other agents among them) and whether the agent may call itself. */
export interface SubAgentChoice {
  tools: string[];
  recursive: boolean;
}

/** How many agents' descriptions are read at once (the list gives only names). */
const READERS = 4;

/**
 * Each listed agent's description, read from the agent itself a few at a time; an agent whose read failed has
 * none. Every id is read once, however often the list grows.
 */
function useDescriptions(ids: string[]): Record<string, string> {
  const [descriptions, setDescriptions] = useState<Record<string, string>>({});
  const asked = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  useEffect(() => {
    const todo = ids.filter((id) => !asked.current.has(id));
    todo.forEach((id) => asked.current.add(id));
    let next = 0;
    const read = async () => {
      while (next < todo.length && mounted.current) {
        const agentId = todo[next++];
        let description = '';
        try {
          description = unwrap(await api.GET('/v1/agents/{agentId}', { params: { path: { agentId } } })).description;
        } catch {
          // The name is enough to choose by; the agent page says more.
        }
        if (mounted.current) setDescriptions((old) => ({ ...old, [agentId]: description }));
      }
    };
    for (let i = 0; i < Math.min(READERS, todo.length); i++) void read();
  }, [ids.join(',')]);
  return descriptions;
}

function toggled(list: string[], id: string, on: boolean): string[] {
  return on ? (list.includes(id) ? list : [...list, id]) : list.filter((entry) => entry !== id);
}

/**
 * Checkboxes for the other agents this one may call as tools (`agent:<name>`), each with its description, and one
 * for calling itself. Chosen agents that the list does not hold (archived, renamed, or on a page not loaded yet)
 * stay chosen, listed apart, until unchecked. `selfId` is the agent being edited, if any.
 */
export function SubAgentsPicker({
  choice,
  onChange,
  selfId,
  selfName,
}: {
  choice: SubAgentChoice;
  onChange: (choice: SubAgentChoice) => void;
  selfId?: string;
  selfName: string;
}) {
  const list = usePagedList<AgentListItem>(async (cursor) => {
    const page = unwrap(await api.GET('/v1/agents', { params: { query: { limit: 200, cursor, status: 'active' } } }));
    return { items: page.agents, nextCursor: page.nextCursor };
  }, 'sub-agents');
  const others = list.items.filter((agent) => agent.id !== selfId);
  const descriptions = useDescriptions(others.map((agent) => agent.id));
  const listed = new Set(others.map((agent) => agent.name));
  const unlisted = choice.tools.filter((tool) => {
    const name = agentNamedBy(tool);
    return name !== undefined && !listed.has(name);
  });
  const pick = (tool: string, on: boolean) => onChange({ ...choice, tools: toggled(choice.tools, tool, on) });

  return (
    <fieldset>
      <legend>Sub-agents (as tools)</legend>
      <p class="hint">
        Other agents this agent may call as tools. Each call starts a run of that agent on the task the model gives it;
        its answer is the tool's result. The model sees each agent by its description.
      </p>
      <ProblemView error={list.error} />
      <ul class="tool-list">
        {others.map((agent) => {
          const tool = agentToolId(agent.name);
          const description = descriptions[agent.id];
          return (
            <li key={agent.id}>
              <label class="checkbox">
                <input
                  type="checkbox"
                  checked={choice.tools.includes(tool)}
                  onChange={(e) => pick(tool, e.currentTarget.checked)}
                />{' '}
                <strong>{agent.name}</strong>{' '}
                <span class="muted">
                  {description === undefined ? '…' : description || 'No description: the model sees its name alone'}
                </span>
              </label>
            </li>
          );
        })}
        <li>
          <label class="checkbox">
            <input
              type="checkbox"
              checked={choice.recursive}
              onChange={(e) => onChange({ ...choice, recursive: e.currentTarget.checked })}
            />{' '}
            <strong>{selfName || 'This agent'}</strong>{' '}
            <span class="muted">itself (recursion, as deep as the service allows)</span>
          </label>
        </li>
      </ul>
      {!list.loading && others.length === 0 && <p class="muted">No other active agents.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
      {unlisted.length > 0 && (
        <fieldset class="tool-group">
          <legend>
            {list.hasMore ? 'Chosen but not among the agents loaded' : 'Chosen but no active agent has this name now'}
          </legend>
          <ul class="tool-list">
            {unlisted.map((tool) => (
              <li key={tool}>
                <label class="checkbox">
                  <input type="checkbox" checked onChange={(e) => pick(tool, e.currentTarget.checked)} />{' '}
                  <code>{tool}</code>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </fieldset>
  );
}
