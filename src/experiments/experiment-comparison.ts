import { type ExperimentMode, isWorkflowTarget } from './experiment';
import type { ExperimentView } from './experiment-view';
import type { ScoredItem } from './experiment-summary';

/** How far the changed items a comparison lists go, worst first. */
export const MAX_COMPARED_ITEMS = 200;

/** One side of a comparison: the experiment, what it ran, and the mean of each scorer. */
export interface ComparedExperiment {
  id: string;
  /** What it ran on: an agent at a version, or a workflow at one. */
  agent?: string;
  agentVersion?: number;
  workflow?: string;
  workflowVersion?: number;
  overrides: Record<string, unknown> | null;
  mode: ExperimentMode;
  datasetVersion: number;
}

/** An item both experiments scored: each side's run and scores, and how much it changed. */
export interface ComparedItem {
  itemId: string;
  input: unknown;
  base: Pick<ScoredItem, 'runId' | 'status' | 'output' | 'scores'>;
  head: Pick<ScoredItem, 'runId' | 'status' | 'output' | 'scores'>;
  /** The mean, over the scorers both gave, of head's score less base's: below 0, it got worse. */
  change: number;
}

export interface ExperimentComparison {
  base: ComparedExperiment;
  head: ComparedExperiment;
  /** Each scorer both experiments used: its mean on each side over the items both scored, and the change. */
  scorers: Array<{ scorer: string; base: number | null; head: number | null; change: number | null }>;
  items: { compared: number; worse: number; better: number; same: number };
  /** The items whose score changed, worst first (at most MAX_COMPARED_ITEMS). */
  changed: ComparedItem[];
}

/**
 * Compares two experiments on one dataset, item by item, over the items both have scored (their dataset versions
 * may differ) and the scorers both used.
 */
export function compareExperiments(
  base: { view: ExperimentView; results: ScoredItem[] },
  head: { view: ExperimentView; results: ScoredItem[] },
  inputOf: (itemId: string) => unknown,
): ExperimentComparison {
  const scorerNames = base.view.scorers.filter((name) => head.view.scorers.includes(name));
  const headResults = new Map(head.results.map((result) => [result.itemId, result]));
  const pairs = base.results.flatMap((result) => {
    const other = headResults.get(result.itemId);
    return other ? [{ base: result, head: other }] : [];
  });
  const scoreOf = (result: ScoredItem, scorer: string) => result.scores.find((s) => s.scorer === scorer)?.score;
  const scorers = scorerNames.map((scorer) => {
    const both = pairs.flatMap((pair) => {
      const [was, is] = [scoreOf(pair.base, scorer), scoreOf(pair.head, scorer)];
      return was === undefined || is === undefined ? [] : [{ was, is }];
    });
    const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
    const [was, is] = [mean(both.map((b) => b.was)), mean(both.map((b) => b.is))];
    const change = was === null || is === null ? null : round(is - was);
    return { scorer, base: was === null ? null : round(was), head: is === null ? null : round(is), change };
  });
  const items = pairs.map((pair) => {
    const changes = scorerNames.flatMap((scorer) => {
      const [was, is] = [scoreOf(pair.base, scorer), scoreOf(pair.head, scorer)];
      return was === undefined || is === undefined ? [] : [is - was];
    });
    const change = changes.length ? round(changes.reduce((a, b) => a + b, 0) / changes.length) : 0;
    return { itemId: pair.base.itemId, base: side(pair.base), head: side(pair.head), change };
  });
  const changed = items
    .filter((item) => item.change !== 0)
    .sort((a, b) => a.change - b.change || (a.itemId < b.itemId ? -1 : 1))
    .slice(0, MAX_COMPARED_ITEMS)
    .map((item) => ({ ...item, input: inputOf(item.itemId) }));
  const count = (test: (change: number) => boolean) => items.filter((item) => test(item.change)).length;
  return {
    base: described(base.view),
    head: described(head.view),
    scorers,
    items: {
      compared: items.length,
      worse: count((c) => c < 0),
      better: count((c) => c > 0),
      same: count((c) => c === 0),
    },
    changed,
  };
}

function side({ runId, status, output, scores }: ScoredItem) {
  return { runId, status, output, scores };
}

function described(view: ExperimentView): ComparedExperiment {
  const { target } = view;
  return {
    id: view.id,
    ...(isWorkflowTarget(target)
      ? { workflow: target.workflow, workflowVersion: target.workflowVersion }
      : { agent: target.agent, agentVersion: target.agentVersion }),
    overrides: target.overrides ?? null,
    mode: view.mode,
    datasetVersion: view.dataset.version,
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
