/**
 * What a workflow does with runs that would overlap, as its decider folds it from the log (so every instance
 * decides the same): the runs it has admitted and not yet seen end, the runs waiting for a slot (in order), and
 * the newest schedule tick kept by `buffer_one`. Only a workflow with a policy (`overlap` other than `allow`, or
 * `maxConcurrentRuns`) counts its runs; runs triggered before it had one are not counted.
 */

/** What a schedule tick does while a run of the workflow is still going (as Temporal's overlap policies). */
export type OverlapPolicy = 'allow' | 'skip' | 'buffer_one';
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['allow', 'skip', 'buffer_one'];

export interface RunPolicy {
  /** Absent (from workflows recorded before it): `allow`. */
  overlap?: OverlapPolicy;
  /** Absent or null: no limit. */
  maxConcurrentRuns?: number | null;
}

export interface RunSlots {
  /** Runs admitted (queued to start, or going) that have not ended. */
  open: string[];
  /** Runs waiting for a slot under `maxConcurrentRuns`, oldest first: they show `queued`. */
  held: string[];
  /** The `scheduledFor` of the newest tick waiting under `buffer_one`. */
  bufferedTick: string | null;
}

export const NO_RUNS: RunSlots = { open: [], held: [], bufferedTick: null };

export function tracksRuns({ overlap, maxConcurrentRuns }: RunPolicy): boolean {
  return (overlap ?? 'allow') !== 'allow' || typeof maxConcurrentRuns === 'number';
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

/** A new run: admitted while a slot is free, else held behind the ones waiting. */
export function admit(slots: RunSlots, { maxConcurrentRuns }: RunPolicy, runId: string): RunSlots {
  const free = typeof maxConcurrentRuns !== 'number' || slots.open.length < maxConcurrentRuns;
  return free && slots.held.length === 0
    ? { ...slots, open: [...slots.open, runId] }
    : { ...slots, held: [...slots.held, runId] };
}

/** The runs that take the slots freed by `runId`'s end (or by a limit raised or removed), oldest first. */
export function admittedAfter(slots: RunSlots, { maxConcurrentRuns }: RunPolicy, runId: string): string[] {
  const open = slots.open.filter((id) => id !== runId);
  const held = slots.held.filter((id) => id !== runId);
  const free = typeof maxConcurrentRuns === 'number' ? Math.max(0, maxConcurrentRuns - open.length) : held.length;
  return held.slice(0, free);
}

/** `runId` ended and `admitted` took the freed slots. */
export function released(slots: RunSlots, runId: string, admitted: string[]): RunSlots {
  return {
    ...slots,
    open: [...slots.open.filter((id) => id !== runId), ...admitted],
    held: slots.held.filter((id) => id !== runId && !admitted.includes(id)),
  };
}
