import { performance } from 'node:perf_hooks';

/** How long pieces of work that pass through `yieldIfTurnIsLong` may run in one turn of the event loop (ms). */
export const TURN_BUDGET_MS = 10;

/** When this turn's budget started (its first piece); undefined: no piece ran since the last turn ended. */
let turnStarted: number | undefined;
/** Pieces waiting for a later turn, first in first out. */
const waiting: Array<() => void> = [];
let turnEndScheduled = false;

/**
 * Lets many pieces of work that become ready together (a hundred runs' model calls starting, or their answers
 * streaming in) take turns with the rest of the event loop, so that timers, health probes and requests are not
 * held up for the whole lot. Call it between two pieces: undefined while this turn's budget lasts (go on at once),
 * else a promise that resolves in a later turn, after timers and I/O. Waiting pieces go on one per turn, first in
 * first out, each then going on while that turn's budget lasts: a piece let go never lets another go, so however
 * many wait, a turn runs one budget and the pieces that were going on in it.
 */
export function yieldIfTurnIsLong(): Promise<void> | undefined {
  const now = performance.now();
  if (turnStarted === undefined) {
    turnStarted = now;
    scheduleTurnEnd();
  }
  if (now - turnStarted < TURN_BUDGET_MS) return undefined;
  return new Promise((resolve) => {
    waiting.push(resolve);
    scheduleTurnEnd();
  });
}

function scheduleTurnEnd(): void {
  if (turnEndScheduled) return;
  turnEndScheduled = true;
  setImmediate(endTurn);
}

/** After the turn's I/O: a new budget, and the first waiting piece goes on; the next one in the next turn. */
function endTurn(): void {
  turnEndScheduled = false;
  turnStarted = undefined;
  const next = waiting.shift();
  if (!next) return;
  next();
  if (waiting.length) scheduleTurnEnd();
}
