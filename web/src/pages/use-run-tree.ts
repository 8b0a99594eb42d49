import { useEffect, useRef, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { eventPage } from '../api/event-pages';
import type { AgentRun, components } from '../api/schema';
import { hasEnded } from '../api/run-state';

export type RunTreeNode = components['schemas']['RunTreeSchema'];

export interface RunRef {
  agentId: string;
  runId: string;
}

/** How often the tree is read again while any run in it has not ended. */
const POLL_MS = 1000;

/** Whether every run of the tree has ended. */
export function allEnded(node: RunTreeNode): boolean {
  return hasEnded(node.status) && node.children.every(allEnded);
}

/** Each run of the tree by its id, with the name of its agent (the root's is `rootName`). */
export function agentNamesByRun(node: RunTreeNode | null, rootName: string | null): Record<string, string> {
  const names: Record<string, string> = {};
  const visit = (at: RunTreeNode) => {
    const name = at.agent ?? rootName;
    if (name) names[at.runId] = name;
    at.children.forEach(visit);
  };
  if (node) visit(node);
  return names;
}

/**
 * The run at the top of the tree a run belongs to, found by going up its parents: each run's first event names its
 * agent and its own parent. A parent that cannot be read ends the climb where it is.
 */
async function rootOf(run: AgentRun): Promise<RunRef> {
  let root: RunRef = { agentId: run.agentId, runId: run.id };
  let parent = run.parentRunId;
  for (let hops = 0; parent && hops < 100; hops++) {
    const first = (await eventPage({ stream: `agentrun-${parent}`, limit: 1 })).events[0];
    const data = (first?.data ?? {}) as Record<string, unknown>;
    if (typeof data.agentId !== 'string') break;
    root = { agentId: data.agentId, runId: parent };
    parent = typeof data.parentRunId === 'string' ? data.parentRunId : null;
  }
  return root;
}

/**
 * The tree of runs a run belongs to, from its root, read with `?include=tree` while `related` (the run has a parent,
 * children, or has called an agent) and again every second until every run in it, this one included, has ended.
 * Each read of the run itself goes to `onRun`: the stream of a run tells nothing of its children (their approvals,
 * its waiting for them), so the page takes those from here. `refresh` reads at once.
 */
export function useRunTree({
  agentId,
  runId,
  run,
  related,
  onRun,
}: {
  agentId: string;
  runId: string;
  run: AgentRun | null;
  related: boolean;
  onRun: (run: AgentRun) => void;
}) {
  const [root, setRoot] = useState<RunRef | null>(null);
  const [rootName, setRootName] = useState<string | null>(null);
  const [tree, setTree] = useState<RunTreeNode | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [generation, setGeneration] = useState(0);
  const onRunRef = useRef(onRun);
  onRunRef.current = onRun;
  const known = run !== null;

  useEffect(() => {
    if (!related || !run || root) return;
    if (!run.parentRunId) return setRoot({ agentId, runId });
    rootOf(run).then(setRoot, (caught) => {
      setError(asProblem(caught));
      setRoot({ agentId, runId });
    });
  }, [related, known]);

  useEffect(() => {
    if (!root) return;
    api.GET('/v1/agents/{agentId}', { params: { path: { agentId: root.agentId } } }).then(
      (result) => setRootName(unwrap(result).name),
      () => setRootName(null),
    );
  }, [root?.agentId]);

  useEffect(() => {
    if (!root) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = (ref: RunRef) =>
      api
        .GET('/v1/agents/{agentId}/runs/{runId}', {
          params: { path: { agentId: ref.agentId, runId: ref.runId }, query: { include: 'tree' } },
        })
        .then(unwrap);
    const poll = async () => {
      try {
        const own = await read({ agentId, runId });
        if (stopped) return;
        onRunRef.current(own);
        const top = root.runId === runId ? own.tree : (await read(root)).tree;
        if (stopped) return;
        setTree(top ?? null);
        setError(null);
        if (!hasEnded(own.status) || !top || !allEnded(top)) timer = setTimeout(poll, POLL_MS);
      } catch (caught) {
        if (stopped) return;
        setError(asProblem(caught));
        timer = setTimeout(poll, 3 * POLL_MS);
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [root?.runId, agentId, runId, generation]);

  return { tree, root, rootName, error, refresh: () => setGeneration((n) => n + 1) };
}
