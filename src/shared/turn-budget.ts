import { performance } from 'node:perf_hooks';

/** How long pieces of work that pass through `yieldIfTurnIsLong` may run in one turn of the event loop (ms). */
export const TURN_BUDGET_MS = 10;

/**
 * How far back a piece's order reaches: the pieces of work begun long ago (a long answer's parts) go before newer
 * ones, but never before a piece that has waited this long, so that no piece waits behind them for good.
 */
const OLDEST_ORDER_MS = 1_000;

/** The order of a piece of work begun at `started` (a `performance.now()` time). */
export const orderSince = (started: number) => Math.max(started, performance.now() - OLDEST_ORDER_MS);

/** When this turn's budget started (its first piece); undefined: no piece ran since the last turn ended. */
let turnStarted: number | undefined;
/** Pieces waiting for a later turn, by their `order` (then first in, first out). */
const waiting: Array<{ order: number; go: () => void }> = [];
/** Waiting pieces let go in one turn at most: each then runs up to its next call, whatever the budget says. */
const LET_GO_PER_TURN = 8;
let letGoThisTurn = 0;
let turnEndScheduled = false;

/**
 * Lets many pieces of work that become ready together (a hundred runs' model calls starting, or their answers
 * streaming in) take turns with the rest of the event loop, so that timers, health probes and requests are not
 * held up for the whole lot. Call it between two pieces: undefined while this turn's budget lasts (go on at once),
 * else a promise that resolves in a later turn, after timers and I/O. Waiting pieces go on lowest `order` first
 * (by default the time of the call: first in, first out): the first at the start of a turn, then one more at each
 * call that finds budget left, at most `LET_GO_PER_TURN` a turn, so however many wait, a turn runs one budget and at
 * most that many pieces beyond it.
 */
export function yieldIfTurnIsLong(order = performance.now()): Promise<void> | undefined {
  const now = performance.now();
  if (turnStarted === undefined) {
    turnStarted = now;
    scheduleTurnEnd();
  }
  if (now - turnStarted < TURN_BUDGET_MS) {
    // Budget left: a waiting piece goes on too (a few a turn, so that slots held by waiting runs free up).
    if (waiting.length && letGoThisTurn < LET_GO_PER_TURN) letNextGo();
    return undefined;
  }
  return new Promise((resolve) => {
    waiting.splice(placeOf(order), 0, { order, go: resolve });
    scheduleTurnEnd();
  });
}

/** Where a piece of `order` waits: after every piece of the same order or lower. */
function placeOf(order: number): number {
  let [low, high] = [0, waiting.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (waiting[middle].order <= order) low = middle + 1;
    else high = middle;
  }
  return low;
}

function scheduleTurnEnd(): void {
  if (turnEndScheduled) return;
  turnEndScheduled = true;
  setImmediate(endTurn);
}

/** After the turn's I/O: a new budget, and the first waiting piece goes on (a few more while the budget lasts). */
function endTurn(): void {
  turnEndScheduled = false;
  turnStarted = undefined;
  letGoThisTurn = 0;
  letNextGo();
}

function letNextGo(): void {
  const next = waiting.shift();
  if (!next) return;
  letGoThisTurn++;
  next.go();
  if (waiting.length) scheduleTurnEnd();
}
