import { useEffect, useState } from 'preact/hooks';
import type { Agent } from '../api/schema';
import { HANDOFF_INPUT_LABELS, handoffsDraft } from '../forms/handoffs-draft';
import { href } from '../router';
import { agentIdNamed } from './sub-agents-list';

/**
 * The agents an agent may hand the conversation to, each with what it is sent, and a link to its page when an
 * active agent has that name now.
 */
export function HandoffsList({ handoffs }: { handoffs: Agent['handoffs'] }) {
  const entries = handoffsDraft(handoffs);
  const names = entries.map((entry) => entry.agent);
  const [ids, setIds] = useState<Record<string, string | null>>({});
  useEffect(() => {
    for (const name of names) {
      agentIdNamed(name).then(
        (id) => setIds((old) => ({ ...old, [name]: id })),
        () => setIds((old) => ({ ...old, [name]: null })),
      );
    }
  }, [names.join('\n')]);
  if (!entries.length) return <dd data-testid="agent-handoffs">none</dd>;
  return (
    <dd data-testid="agent-handoffs">
      <ul class="inline-list">
        {entries.map(({ agent, input }) => {
          const id = ids[agent];
          return (
            <li key={agent}>
              {id ? <a href={href('agents', id)}>{agent}</a> : agent}
              <span class="muted"> (sent: {HANDOFF_INPUT_LABELS[input]})</span>
              {id === null && <span class="muted"> (no active agent has this name now)</span>}
            </li>
          );
        })}
      </ul>
    </dd>
  );
}
