import type { RunStatus, Usage } from '../domain/run';

/** An item's run as its score records it. */
export interface ScoredItem {
  itemId: string;
  runId: string;
  status: RunStatus;
  output: string | null;
  outputObject?: unknown;
  error?: { code: string; message: string };
  scores: Array<{ scorer: string; score: number; reason?: string }>;
  usage: Usage | null;
  durationMs: number | null;
  /** The model requests its run made. */
  modelCalls?: number;
  /** In `recorded` mode, of an item made from a run: its tool calls given the recorded result, and those that ran. */
  recorded?: { hits: number; misses: number };
}

/** What an experiment's scored items add up to, kept as they are scored. */
export interface ExperimentTotals {
  /** Per scorer: the sum of its scores and how many it gave. */
  byScorer: Record<string, { sum: number; count: number }>;
  succeeded: number;
  failed: number;
  usage: Usage;
  /** Each item's run's duration, in the order they were scored. */
  durationsMs: number[];
  modelCalls?: number;
  recorded?: { hits: number; misses: number };
}

export const NO_TOTALS: ExperimentTotals = {
  byScorer: {},
  succeeded: 0,
  failed: 0,
  usage: { inputTokens: 0, outputTokens: 0 },
  durationsMs: [],
  modelCalls: 0,
  recorded: { hits: 0, misses: 0 },
};

/** An experiment's outcome: each scorer's mean against its threshold, whether it passed, what it cost and took. */
export interface ExperimentSummary {
  scorers: Array<{ scorer: string; mean: number | null; threshold: number | null; passed: boolean | null }>;
  /** Null without thresholds; else whether every scorer's mean reached its threshold. */
  passed: boolean | null;
  items: { total: number; succeeded: number; failed: number };
  usage: Usage;
  durationMs: { p50: number | null; p95: number | null };
  /** The model requests of every item's run. */
  modelCalls: number;
  /** `recorded` mode only (else null): the tool calls given a recorded result, and those that called the tool. */
  recorded: { hits: number; misses: number } | null;
}

export function addToTotals(totals: ExperimentTotals, item: ScoredItem): ExperimentTotals {
  const byScorer = { ...totals.byScorer };
  for (const { scorer, score } of item.scores) {
    const was = byScorer[scorer] ?? { sum: 0, count: 0 };
    byScorer[scorer] = { sum: was.sum + score, count: was.count + 1 };
  }
  const ok = item.status === 'succeeded';
  return {
    byScorer,
    succeeded: totals.succeeded + (ok ? 1 : 0),
    failed: totals.failed + (ok ? 0 : 1),
    usage: addUsage(totals.usage, item.usage),
    durationsMs: item.durationMs === null ? totals.durationsMs : [...totals.durationsMs, item.durationMs],
    modelCalls: (totals.modelCalls ?? 0) + (item.modelCalls ?? 0),
    recorded: {
      hits: (totals.recorded?.hits ?? 0) + (item.recorded?.hits ?? 0),
      misses: (totals.recorded?.misses ?? 0) + (item.recorded?.misses ?? 0),
    },
  };
}

/** The summary of the experiment as it stands. A scorer that gave no score (every run failed) has no mean. */
export function summaryOf(state: {
  mode?: 'live' | 'recorded';
  scorers: Array<{ name: string }>;
  thresholds: Record<string, number>;
  dataset: { itemCount: number };
  totals: ExperimentTotals;
}): ExperimentSummary {
  const { totals, thresholds } = state;
  const scorers = state.scorers.map(({ name }) => {
    const sums = totals.byScorer[name];
    const mean = sums && sums.count ? round(sums.sum / sums.count) : null;
    const threshold = thresholds[name] ?? null;
    const passed = threshold === null ? null : mean !== null && mean >= threshold;
    return { scorer: name, mean, threshold, passed };
  });
  const judged = scorers.filter((scorer) => scorer.passed !== null);
  const sorted = [...totals.durationsMs].sort((a, b) => a - b);
  return {
    scorers,
    passed: judged.length ? judged.every((scorer) => scorer.passed) : null,
    items: { total: state.dataset.itemCount, succeeded: totals.succeeded, failed: totals.failed },
    usage: totals.usage,
    durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95) },
    modelCalls: totals.modelCalls ?? 0,
    recorded: state.mode === 'recorded' ? (totals.recorded ?? { hits: 0, misses: 0 }) : null,
  };
}

function addUsage(total: Usage, usage: Usage | null): Usage {
  if (!usage) return total;
  const costUsd =
    total.costUsd === undefined && usage.costUsd === undefined
      ? undefined
      : round((total.costUsd ?? 0) + (usage.costUsd ?? 0), 8);
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    ...(costUsd !== undefined && { costUsd }),
  };
}

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function round(value: number, digits = 4): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
