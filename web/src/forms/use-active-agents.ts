import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { AgentListItem } from '../api/schema';

/** At most this many pages of 200 agents are read for a picker; more than that is found on the agent list. */
const MAX_PAGES = 5;

/**
 * The active agents a picker offers (handoffs, judge guardrails), read once per form, a few pages at most.
 * `complete` is false when more agents exist than were read.
 */
export function useActiveAgents() {
  const [agents, setAgents] = useState<AgentListItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [complete, setComplete] = useState(true);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    let stopped = false;
    const read = async () => {
      let cursor: string | undefined;
      const found: AgentListItem[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = unwrap(
          await api.GET('/v1/agents', { params: { query: { limit: 200, cursor, status: 'active' } } }),
        );
        found.push(...listed.agents);
        if (!listed.nextCursor) return { found, complete: true };
        cursor = listed.nextCursor;
      }
      return { found, complete: false };
    };
    read().then(
      (result) => {
        if (stopped) return;
        setAgents(result.found);
        setComplete(result.complete);
        setLoading(false);
      },
      (caught) => {
        if (stopped) return;
        setError(asProblem(caught));
        setLoading(false);
      },
    );
    return () => void (stopped = true);
  }, []);
  return { agents, loading, complete, error };
}

export type ActiveAgents = ReturnType<typeof useActiveAgents>;
