import { SnapshotFormat } from '../../domain/decider';
import { WorkflowAggregate, WorkflowState } from './workflow.state';

/**
 * A workflow's snapshot is its state as it is: plain JSON, and bounded (triggers move `lastRun` and
 * `lastScheduledFor` but add nothing), so a snapshot stays small however often the workflow runs.
 * Bump `version` with any change to WorkflowAggregate or to what `evolve` makes of past events. An optional field
 * that no event recorded before it sets (`inputSchema`) needs no bump: every snapshot written before it equals a replay.
 */
export const workflowSnapshot: SnapshotFormat<WorkflowState> = {
  version: 2,
  fromJson(json) {
    if (json === null || isWorkflowAggregate(json)) return json;
    throw new Error('not the state of a workflow');
  },
};

const STRINGS = ['id', 'name', 'status', 'createdAt', 'activeSince'] as const;
const NULLABLE_STRINGS = ['lastRun', 'lastScheduledFor'] as const;

function isWorkflowAggregate(json: unknown): json is WorkflowAggregate {
  if (typeof json !== 'object' || json === null) return false;
  const state = json as Record<string, unknown>;
  return (
    STRINGS.every((key) => typeof state[key] === 'string') &&
    NULLABLE_STRINGS.every((key) => state[key] === null || typeof state[key] === 'string') &&
    typeof state.version === 'number' &&
    Array.isArray(state.steps) &&
    typeof (state.trigger as { type?: unknown } | null)?.type === 'string'
  );
}
