import { isEnded } from '../../domain/run';
import type { AgentRun, PendingApproval } from '../agent-run/agent-run.state';
import type { StoredAgentRun } from './agent-tables';
import { ownedBy } from '../agent-run/agent-run.view';

/** A run and its descendants, as `?include=tree` shows them. */
export interface RunTree {
  runId: string;
  agentId: string;
  /** The name its parent called it by; null for the root. */
  agent: string | null;
  status: AgentRun['status'];
  usage: AgentRun['usage'];
  children: RunTree[];
}

type Lookup = (runId: string) => StoredAgentRun | undefined;

/** A tree is at most `RUN_MAX_DEPTH` (at most 32) deep; this bounds a walk over records that disagree. */
const MAX_WALK_DEPTH = 64;

/**
 * The run as the read models show it now: each child with its current status, the calls waiting for a decision
 * anywhere below it (each names its run, whose approvals route decides it), and with `tree`, the whole tree.
 */
export function withDescendants(run: AgentRun, lookup: Lookup, tree: boolean): AgentRun & { tree?: RunTree } {
  if (!run.children.length) return tree ? { ...run, tree: treeOf(run, null, lookup, 0) } : run;
  const children = run.children.map((child) => ({ ...child, status: lookup(child.runId)?.status ?? child.status }));
  const pendingApprovals = [...run.pendingApprovals, ...pendingBelow(run, lookup, 0)];
  return { ...run, children, pendingApprovals, ...(tree && { tree: treeOf(run, null, lookup, 0) }) };
}

function pendingBelow(run: Pick<AgentRun, 'children'>, lookup: Lookup, depth: number): PendingApproval[] {
  if (depth >= MAX_WALK_DEPTH) return [];
  return (run.children ?? []).flatMap((child) => {
    if (isEnded(child.status)) return [];
    const found = lookup(child.runId);
    if (!found) return [];
    const own = found.status === 'waiting' ? found.pendingApprovals.map(ownedBy(found)) : [];
    return [...own, ...pendingBelow(found, lookup, depth + 1)];
  });
}

function treeOf(
  run: Pick<AgentRun, 'id' | 'agentId' | 'status' | 'usage' | 'children'>,
  agent: string | null,
  lookup: Lookup,
  depth: number,
): RunTree {
  const children =
    depth >= MAX_WALK_DEPTH
      ? []
      : (run.children ?? []).map((child) => {
          const found = lookup(child.runId);
          if (found) return treeOf(found, child.agent, lookup, depth + 1);
          const { runId, agentId, status } = child;
          return { runId, agentId, agent: child.agent, status, usage: null, children: [] };
        });
  return { runId: run.id, agentId: run.agentId, agent, status: run.status, usage: run.usage, children };
}
