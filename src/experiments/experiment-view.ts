import type { ExperimentPlan, ExperimentStatus } from './experiment';
import { ExperimentSummary, NO_TOTALS, ScoredItem, addToTotals, summaryOf } from './experiment-summary';

/** An experiment as the API shows it: its plan, how far it got, and its summary as it stands. */
export interface ExperimentView extends Omit<ExperimentPlan, 'scorers'> {
  status: ExperimentStatus;
  scorers: string[];
  progress: { total: number; started: number; scored: number };
  /** Null until it has succeeded, and without thresholds; else whether every threshold was met. */
  passed: boolean | null;
  /** Recorded with its end; while it runs, made from the results so far. */
  summary: ExperimentSummary | null;
  createdAt: string;
  completedAt: string | null;
}

/** The view when created, before any item has started. */
export function createdView(plan: ExperimentPlan, createdAt: string): ExperimentView {
  const total = plan.dataset.itemCount;
  const { scorers, ...rest } = plan;
  return {
    ...rest,
    status: total === 0 ? 'succeeded' : 'queued',
    scorers: scorers.map((scorer) => scorer.name),
    progress: { total, started: 0, scored: 0 },
    passed: null,
    summary: null,
    createdAt,
    completedAt: null,
  };
}

/** The summary of an experiment still running, from the results of the items scored so far. */
export function summarySoFar(view: ExperimentView, results: ScoredItem[]): ExperimentSummary {
  const totals = results.reduce(addToTotals, NO_TOTALS);
  const scorers = view.scorers.map((name) => ({ name }));
  return summaryOf({ mode: view.mode, scorers, thresholds: view.thresholds, dataset: view.dataset, totals });
}
