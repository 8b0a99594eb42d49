import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { href } from '../router';

/** The id of the active agent with exactly this name, or null when there is none (the list filters by prefix). */
export async function agentIdNamed(name: string): Promise<string | null> {
  let cursor: string | undefined;
  // A few pages at most: a name shared as a prefix by hundreds of agents is found on the agent list instead.
  for (let page = 0; page < 5; page++) {
    const found = unwrap(
      await api.GET('/v1/agents', { params: { query: { name, limit: 200, status: 'active', cursor } } }),
    );
    const agent = found.agents.find((item) => item.name === name);
    if (agent) return agent.id;
    if (!found.nextCursor) return null;
    cursor = found.nextCursor;
  }
  return null;
}

/**
 * The agents an agent may call as tools, each a link to its page when an active agent has that name now; the
 * agent's own name is marked as recursion.
 */
export function SubAgentsList({ names, self }: { names: string[]; self: { id: string; name: string } }) {
  const [ids, setIds] = useState<Record<string, string | null>>({});
  useEffect(() => {
    for (const name of names) {
      if (name === self.name) continue;
      agentIdNamed(name).then(
        (id) => setIds((old) => ({ ...old, [name]: id })),
        () => setIds((old) => ({ ...old, [name]: null })),
      );
    }
  }, [names.join('\n'), self.name]);
  if (!names.length) return <dd data-testid="agent-sub-agents">none</dd>;
  return (
    <dd data-testid="agent-sub-agents">
      <ul class="inline-list">
        {names.map((name) => {
          const id = name === self.name ? self.id : ids[name];
          return (
            <li key={name}>
              {id ? <a href={href('agents', id)}>{name}</a> : name}
              {name === self.name && <span class="muted"> (itself: recursion)</span>}
              {id === null && <span class="muted"> (no active agent has this name now)</span>}
            </li>
          );
        })}
      </ul>
    </dd>
  );
}
