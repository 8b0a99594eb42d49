import type { AgentRun } from '../api/schema';
import { hasEnded } from '../api/run-state';
import { StatusBadge } from '../components/status-badge';
import { formatUsd } from '../format';
import { href } from '../router';
import { HandoffLine } from './run-handoffs';
import type { RunTreeNode } from './use-run-tree';

type Usage = NonNullable<AgentRun['usage']>;

/** A run's page: by its agent when known, else by the run's id alone (the page finds its agent). */
function runHref(runId: string, agentId?: string): string {
  return agentId ? href('agents', agentId, 'runs', runId) : href('agent-runs', runId);
}

export function formatUsage(usage: Usage): string {
  const tokens = `${usage.inputTokens} tokens in, ${usage.outputTokens} out`;
  return usage.costUsd !== undefined ? `${tokens}, ${formatUsd(usage.costUsd)}` : tokens;
}

const sameUsage = (a: Usage | null, b: Usage | null) =>
  a?.inputTokens === b?.inputTokens && a?.outputTokens === b?.outputTokens && a?.costUsd === b?.costUsd;

/** "Started by run …": the call of another run (or of the same agent) that started this one. */
export function ParentRunLine({ run, parentName }: { run: AgentRun; parentName?: string }) {
  if (!run.parentRunId) return null;
  return (
    <p data-testid="run-parent">
      Started by run <a href={runHref(run.parentRunId)}>{run.parentRunId}</a>
      {parentName && ` of ${parentName}`}
      {run.parentToolCallId && <span class="muted"> (its call {run.parentToolCallId})</span>}
    </p>
  );
}

/** While the run waits for the children it started: which, each a link to its run. */
export function WaitingOnLine({ run, status }: { run: AgentRun; status: string }) {
  if (hasEnded(status) || run.waitingOn.length === 0) return null;
  const agentOf = (runId: string) => run.children.find((child) => child.runId === runId)?.agentId;
  return (
    <p data-testid="run-waiting-on">
      Waiting for:{' '}
      {run.waitingOn.map((waiting, i) => (
        <span key={waiting.runId}>
          {i > 0 && ', '}
          <a href={runHref(waiting.runId, agentOf(waiting.runId))}>{waiting.agent}</a>
        </span>
      ))}
    </p>
  );
}

/** For the run's facts: its usage with that of its ended descendants, when that differs from its own. */
export function TotalUsageFact({ run }: { run: AgentRun }) {
  if (!run.totalUsage || sameUsage(run.usage, run.totalUsage)) return null;
  return (
    <>
      <dt>Total with sub-agents</dt>
      <dd data-testid="run-total-usage">{formatUsage(run.totalUsage)}</dd>
    </>
  );
}

/** Beside a call of another agent: a link to the child run it started. */
export function ChildRunLink({ run, callId }: { run: AgentRun | null; callId: string }) {
  const child = run?.children.find((c) => c.toolCallId === callId);
  if (!child) return null;
  return <a href={runHref(child.runId, child.agentId)}>its run of {child.agent}</a>;
}

/** The current run's handoffs, under its line in the tree (the tree itself holds none). */
function TreeHandoffs({ handoffs }: { handoffs: AgentRun['handoffs'] }) {
  return (
    <ul class="run-tree-handoffs" aria-label="Handoffs in this run" data-testid="run-tree-handoffs">
      {handoffs.map((handoff, i) => (
        <li key={i}>
          handed off: <HandoffLine handoff={handoff} />
        </li>
      ))}
    </ul>
  );
}

function TreeNode({
  node,
  currentRunId,
  rootName,
  handoffs,
}: {
  node: RunTreeNode;
  currentRunId: string;
  rootName: string | null;
  handoffs?: AgentRun['handoffs'];
}) {
  const current = node.runId === currentRunId;
  const name = node.agent ?? rootName ?? node.agentId;
  return (
    <li data-testid="run-tree-node" data-run-id={node.runId}>
      <span class="run-tree-line">
        <a href={runHref(node.runId, node.agentId)} aria-current={current ? 'page' : undefined}>
          {name}
        </a>{' '}
        <StatusBadge status={node.status} />
        {current && <span class="muted"> this run</span>}
        {node.usage && <span class="muted"> {formatUsage(node.usage)}</span>}
      </span>
      {current && handoffs && handoffs.length > 0 && <TreeHandoffs handoffs={handoffs} />}
      {node.children.length > 0 && (
        <ul aria-label={`Runs started by ${name}`}>
          {node.children.map((child) => (
            <TreeNode
              key={child.runId}
              node={child}
              currentRunId={currentRunId}
              rootName={rootName}
              handoffs={handoffs}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The runs of the tree this run belongs to, from its root: each with its agent, status and usage, and a link; under
 * this run, the handoffs it made.
 */
export function RunTree({
  tree,
  currentRunId,
  rootName,
  handoffs,
}: {
  tree: RunTreeNode | null;
  currentRunId: string;
  rootName: string | null;
  handoffs?: AgentRun['handoffs'];
}) {
  return (
    <section data-testid="run-tree" aria-labelledby="run-tree-heading">
      <h2 id="run-tree-heading">Run tree</h2>
      {tree ? (
        <ul class="run-tree">
          <TreeNode node={tree} currentRunId={currentRunId} rootName={rootName} handoffs={handoffs} />
        </ul>
      ) : (
        <p class="muted" aria-live="polite">
          Loading…
        </p>
      )}
    </section>
  );
}
