import { NO_RUNS, admit, released, tracksRuns } from '../../domain/run-slots';
import { WorkflowEvent } from './workflow.events';
import { WorkflowAggregate, WorkflowState } from './workflow.state';
import { later } from './instants';

/** A workflow after one of its events. */
export function evolveWorkflow(state: WorkflowState, event: WorkflowEvent): WorkflowState {
  if (event.type === 'WorkflowCreated') {
    const { id, name, trigger, steps, createdAt, outputStep, inputSchema, overlap, maxConcurrentRuns, concurrency } =
      event.data;
    return {
      id,
      name,
      status: 'active',
      trigger,
      steps,
      ...(outputStep !== undefined && { outputStep }),
      ...(inputSchema && { inputSchema }),
      ...(overlap && { overlap }),
      ...(typeof maxConcurrentRuns === 'number' && { maxConcurrentRuns }),
      ...(concurrency && { concurrency }),
      lastRun: null,
      version: 1,
      createdAt,
      lastScheduledFor: null,
      activeSince: createdAt,
    };
  }
  if (!state) return state;
  switch (event.type) {
    case 'WorkflowTriggered': {
      const { trigger, triggeredAt } = event.data;
      const scheduled = trigger.type === 'schedule' ? trigger.scheduledFor : null;
      // A backfill's ticks are in the past: the schedule's own last tick stays where it is.
      const lastScheduledFor =
        trigger.type === 'schedule' && trigger.backfill
          ? state.lastScheduledFor
          : later(scheduled, state.lastScheduledFor);
      const counted = countRun(state, event.data.runId, scheduled, event.data.concurrencyKey);
      return { ...state, lastRun: triggeredAt, lastScheduledFor, ...counted };
    }
    case 'ScheduledRunsSkipped':
      return { ...state, lastScheduledFor: event.data.last };
    case 'ScheduledTickSkipped':
      return { ...state, lastScheduledFor: event.data.scheduledFor };
    case 'ScheduledTickBuffered': {
      const { scheduledFor } = event.data;
      return {
        ...state,
        lastScheduledFor: scheduledFor,
        runs: { ...(state.runs ?? NO_RUNS), bufferedTick: scheduledFor },
      };
    }
    case 'WorkflowRunReleased': {
      const { runId, admitted } = event.data;
      return { ...state, runs: released(state.runs ?? NO_RUNS, runId, admitted) };
    }
    case 'WorkflowPaused':
      // A tick kept for later belongs to the schedule that stops.
      return { ...state, status: 'paused', ...(state.runs && { runs: { ...state.runs, bufferedTick: null } }) };
    case 'WorkflowResumed':
      return { ...state, status: 'active', activeSince: event.data.resumedAt };
    case 'WorkflowUpdated': {
      const { changes, version, updatedAt } = event.data;
      // A changed trigger starts afresh: no tick of the schedule before the change is due.
      const activeSince = changes.trigger && state.status === 'active' ? updatedAt : state.activeSince;
      // A tick kept for later belongs to the schedule it came from.
      const runs = changes.trigger && state.runs ? { runs: { ...state.runs, bufferedTick: null } } : {};
      // An optional field changed to null is removed.
      const { outputStep, inputSchema, concurrency, ...rest } = { ...state, ...changes, version, activeSince, ...runs };
      return {
        ...rest,
        ...(typeof outputStep === 'string' && { outputStep }),
        ...(inputSchema && { inputSchema }),
        ...(concurrency && { concurrency }),
      };
    }
    case 'WorkflowArchived':
      return { ...state, status: 'archived', version: event.data.version };
    default:
      return state;
  }
}

/** A new run under a policy is counted; a buffered tick that starts is no longer kept. */
function countRun(
  state: WorkflowAggregate,
  runId: string,
  scheduled: string | null,
  key: string | undefined,
): Pick<WorkflowAggregate, 'runs'> {
  if (!tracksRuns(state) && !state.runs) return {};
  let runs = state.runs ?? NO_RUNS;
  if (scheduled !== null && runs.bufferedTick === scheduled) runs = { ...runs, bufferedTick: null };
  return { runs: tracksRuns(state) ? admit(runs, state, runId, key) : runs };
}
