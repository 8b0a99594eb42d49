/**
 * What a workflow does with runs that would overlap, as its decider folds it from the log (so every instance
 * decides the same): the runs it has admitted and not yet seen end, the runs waiting for a slot (in order), and
 * the newest schedule tick kept by `buffer_one`. Only a workflow with a policy (`overlap` other than `allow`,
 * `maxConcurrentRuns`, or `concurrency`) counts its runs; runs triggered before it had one are not counted.
 */

/** What a schedule tick does while a run of the workflow is still going (as Temporal's overlap policies). */
export type OverlapPolicy = 'allow' | 'skip' | 'buffer_one';
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['allow', 'skip', 'buffer_one'];

/** At most `limit` runs at once per key: `key` a template over the run's input (`{{input.customerId}}`). */
export interface ConcurrencyKey {
  key: string;
  limit: number;
}

export interface RunPolicy {
  /** Absent (from workflows recorded before it): `allow`. */
  overlap?: OverlapPolicy;
  /** Absent or null: no limit. */
  maxConcurrentRuns?: number | null;
  /** Absent or null: no limit per key. */
  concurrency?: ConcurrencyKey | null;
}

export interface RunSlots {
  /** Runs admitted (queued to start, or going) that have not ended. */
  open: string[];
  /** Runs waiting for a slot under `maxConcurrentRuns`, oldest first: they show `queued`. */
  held: string[];
  /** The `scheduledFor` of the newest tick waiting under `buffer_one`. */
  bufferedTick: string | null;
  /** The concurrency key of each counted run that has one; absent: none has. */
  keys?: Record<string, string>;
}

export const NO_RUNS: RunSlots = { open: [], held: [], bufferedTick: null };

export function tracksRuns({ overlap, maxConcurrentRuns, concurrency }: RunPolicy): boolean {
  return (overlap ?? 'allow') !== 'allow' || typeof maxConcurrentRuns === 'number' || !!concurrency;
}

export function anyGoing(slots: RunSlots | undefined): boolean {
  return !!slots && slots.open.length + slots.held.length > 0;
}

export function isHeld(slots: RunSlots | undefined, runId: string): boolean {
  return !!slots?.held.includes(runId);
}

export function isCounted(slots: RunSlots | undefined, runId: string): boolean {
  return !!slots && (slots.open.includes(runId) || slots.held.includes(runId));
}

/** Whether a run of `key` may start beside the `open` runs: a slot of the workflow free, and one of its key. */
function fits(slots: RunSlots, open: string[], policy: RunPolicy, key: string | undefined): boolean {
  const { maxConcurrentRuns, concurrency } = policy;
  if (typeof maxConcurrentRuns === 'number' && open.length >= maxConcurrentRuns) return false;
  if (!concurrency || key === undefined) return true;
  return open.filter((id) => slots.keys?.[id] === key).length < concurrency.limit;
}

/**
 * A new run (with its concurrency key, when the workflow has `concurrency`): admitted when it fits and no run of
 * its key waits before it, else held. Runs of other keys never hold it back; without keys every run shares one.
 */
export function admit(slots: RunSlots, policy: RunPolicy, runId: string, key?: string): RunSlots {
  const keyed = key === undefined ? slots : { ...slots, keys: { ...slots.keys, [runId]: key } };
  const behind = slots.held.some((id) => slots.keys?.[id] === key);
  return fits(keyed, slots.open, policy, key) && !behind
    ? { ...keyed, open: [...slots.open, runId] }
    : { ...keyed, held: [...slots.held, runId] };
}

/**
 * The runs that take the slots freed by `runId`'s end, in the order they were triggered: each held run that fits,
 * except behind an earlier run of its own key that still does not.
 */
export function admittedAfter(slots: RunSlots, policy: RunPolicy, runId: string): string[] {
  const open = slots.open.filter((id) => id !== runId);
  const waiting = new Set<string | undefined>();
  const admitted: string[] = [];
  for (const id of slots.held) {
    if (id === runId) continue;
    const key = slots.keys?.[id];
    if (waiting.has(key)) continue;
    if (fits(slots, [...open, ...admitted], policy, key)) admitted.push(id);
    else waiting.add(key);
  }
  return admitted;
}

/** `runId` ended and `admitted` took the freed slots. */
export function released(slots: RunSlots, runId: string, admitted: string[]): RunSlots {
  const { [runId]: _ended, ...keys } = slots.keys ?? {};
  return {
    ...slots,
    open: [...slots.open.filter((id) => id !== runId), ...admitted],
    held: slots.held.filter((id) => id !== runId && !admitted.includes(id)),
    ...(slots.keys && { keys }),
  };
}
