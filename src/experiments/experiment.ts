import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';
import {
  ExperimentSummary,
  ExperimentTotals,
  NO_TOTALS,
  ScoredItem,
  addToTotals,
  summaryOf,
} from './experiment-summary';

export type { ScoredItem };

export const EXPERIMENT_MODES = ['live', 'recorded'] as const;
export type ExperimentMode = (typeof EXPERIMENT_MODES)[number];

/** An agent dataset's items run on the agent at one version, each as a run of it. */
export interface AgentTarget {
  agentId: string;
  agent: string;
  agentVersion: number;
  overrides: Record<string, unknown> | null;
}

/** A workflow dataset's items run on the workflow at one version, each as a run of it triggered with the item. */
export interface WorkflowTarget {
  workflowId: string;
  workflow: string;
  workflowVersion: number;
  overrides: Record<string, unknown> | null;
}

export type ExperimentTarget = AgentTarget | WorkflowTarget;

export const isWorkflowTarget = (target: ExperimentTarget): target is WorkflowTarget => 'workflowId' in target;

/**
 * What an experiment runs: every item of a dataset's version on an agent or a workflow at one version (with
 * `overrides`, a merge patch of its definition tried without saving it), scored by each scorer.
 */
export interface ExperimentPlan {
  id: string;
  dataset: { id: string; name: string; version: number; itemCount: number };
  target: ExperimentTarget;
  scorers: Array<{ id: string; name: string }>;
  concurrency: number;
  mode: ExperimentMode;
  /** The least mean each scorer named must reach for the experiment to pass. */
  thresholds: Record<string, number>;
}

/** `succeeded`: every item was run and scored (whether the thresholds were met is `passed`). */
export type ExperimentStatus = 'queued' | 'running' | 'succeeded';

export interface ExperimentAggregate extends ExperimentPlan {
  status: ExperimentStatus;
  /** The run of each item started, by item id, in the order they were started. */
  started: Record<string, string>;
  startedCount: number;
  /** The items scored, by item id. */
  scored: Record<string, true>;
  scoredCount: number;
  /** What the scored items add up to, for the summary. */
  totals: ExperimentTotals;
  /** The last item started, in the dataset's order: the next ones come after it. */
  lastStartedItemId: string | null;
  createdAt: string;
  completedAt: string | null;
  summary: ExperimentSummary | null;
}

export type ExperimentState = ExperimentAggregate | null;

export type CreateExperiment = { type: 'CreateExperiment'; plan: ExperimentPlan };
export type StartExperimentItems = {
  type: 'StartExperimentItems';
  experimentId: string;
  items: Array<{ itemId: string; runId: string }>;
};
export type ScoreExperimentItem = { type: 'ScoreExperimentItem'; experimentId: string; item: ScoredItem };
export type ExperimentCommand = CreateExperiment | StartExperimentItems | ScoreExperimentItem;

export type ExperimentCreated = DomainEvent<'ExperimentCreated', ExperimentPlan & { createdAt: string }>;
export type ExperimentItemsStarted = DomainEvent<
  'ExperimentItemsStarted',
  { experimentId: string; items: Array<{ itemId: string; runId: string }>; at: string }
>;
export type ExperimentItemScored = DomainEvent<
  'ExperimentItemScored',
  ScoredItem & { experimentId: string; at: string }
>;
export type ExperimentCompleted = DomainEvent<
  'ExperimentCompleted',
  { experimentId: string; summary: ExperimentSummary; completedAt: string }
>;
export type ExperimentEvent = ExperimentCreated | ExperimentItemsStarted | ExperimentItemScored | ExperimentCompleted;

export const EXPERIMENT_EVENT_TYPES = eventTypes<ExperimentEvent>({
  ExperimentCreated: true,
  ExperimentItemsStarted: true,
  ExperimentItemScored: true,
  ExperimentCompleted: true,
});

export const experimentStream = (experimentId: string) => `experiment-${experimentId}`;

/** How many items an experiment may have running at once: `concurrency`, less those started and not yet scored. */
export function openSlots(state: ExperimentAggregate): number {
  const running = state.startedCount - state.scoredCount;
  return Math.max(0, Math.min(state.concurrency - running, state.dataset.itemCount - state.startedCount));
}

export const experimentDecider: Decider<ExperimentState, ExperimentCommand, ExperimentEvent> = {
  initialState: null,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'CreateExperiment') {
      if (state) throw new DomainError('conflict', `Experiment ${command.plan.id} already exists`);
      return [{ type: 'ExperimentCreated', data: { ...command.plan, createdAt: at } }];
    }
    if (!state) throw new DomainError('not_found', `Experiment ${command.experimentId} does not exist`);
    const experimentId = state.id;
    if (command.type === 'StartExperimentItems') {
      // Each item is started once, and never more than `concurrency` at a time.
      const fresh = command.items.filter(({ itemId }) => !state.started[itemId]).slice(0, openSlots(state));
      if (!fresh.length) return [];
      return [{ type: 'ExperimentItemsStarted', data: { experimentId, items: fresh, at } }];
    }
    const { item } = command;
    if (state.started[item.itemId] !== item.runId || state.scored[item.itemId]) return [];
    const scored: ExperimentEvent = { type: 'ExperimentItemScored', data: { ...item, experimentId, at } };
    if (state.scoredCount + 1 < state.dataset.itemCount) return [scored];
    const summary = summaryOf(experimentDecider.evolve(state, scored)!);
    return [scored, { type: 'ExperimentCompleted', data: { experimentId, summary, completedAt: at } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ExperimentCreated': {
        const { createdAt, ...plan } = event.data;
        const empty = { started: {}, startedCount: 0, scored: {}, scoredCount: 0, lastStartedItemId: null };
        const totals = NO_TOTALS;
        const status = plan.dataset.itemCount === 0 ? ('succeeded' as const) : ('queued' as const);
        return { ...plan, ...empty, totals, status, createdAt, completedAt: null, summary: null };
      }
      case 'ExperimentItemsStarted': {
        if (!state) return state;
        const started = { ...state.started };
        for (const { itemId, runId } of event.data.items) started[itemId] = runId;
        const lastStartedItemId = event.data.items[event.data.items.length - 1].itemId;
        const startedCount = state.startedCount + event.data.items.length;
        return { ...state, status: 'running', started, startedCount, lastStartedItemId };
      }
      case 'ExperimentItemScored': {
        if (!state) return state;
        const { experimentId: _e, at: _at, ...item } = event.data;
        const scored = { ...state.scored, [item.itemId]: true as const };
        return { ...state, scored, scoredCount: state.scoredCount + 1, totals: addToTotals(state.totals, item) };
      }
      case 'ExperimentCompleted':
        return (
          state && { ...state, status: 'succeeded', summary: event.data.summary, completedAt: event.data.completedAt }
        );
      default:
        return state;
    }
  },
};
