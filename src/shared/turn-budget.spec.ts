import { performance } from 'node:perf_hooks';
import { TURN_BUDGET_MS, orderSince, yieldIfTurnIsLong } from './turn-budget';

/** Keeps the thread busy for `ms`, as a piece of real work would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('yieldIfTurnIsLong', () => {
  it('lets a timer run between pieces that together outlast a turn, and runs every piece once, in order', async () => {
    const done: string[] = [];
    let timerFiredAfter: number | undefined;
    setTimeout(() => (timerFiredAfter = done.length), 0);
    const piece = async (id: number) => {
      for (let step = 0; step < 2; step++) {
        const later = yieldIfTurnIsLong();
        if (later) await later;
        busy(TURN_BUDGET_MS / 4);
        done.push(`${id}.${step}`);
      }
    };
    // Twenty pieces ready at once: ten budgets of work.
    await Promise.all(Array.from({ length: 20 }, (_, id) => piece(id)));

    expect(done).toHaveLength(40);
    expect(new Set(done).size).toBe(40);
    for (let id = 0; id < 20; id++) expect(done.indexOf(`${id}.0`)).toBeLessThan(done.indexOf(`${id}.1`));
    // Without the budget all forty steps run before the timer.
    expect(timerFiredAfter).toBeDefined();
    expect(timerFiredAfter).toBeLessThan(20);
  });

  it('lets a piece go on at once while the turn has budget', async () => {
    // The clock is the test's: a busy machine pausing between two calls must not spend the budget for it.
    let now = performance.now();
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      await new Promise((resolve) => setImmediate(resolve));
      expect(yieldIfTurnIsLong()).toBeUndefined();
      now += TURN_BUDGET_MS - 1;
      expect(yieldIfTurnIsLong()).toBeUndefined();
      now += 2;
      const later = yieldIfTurnIsLong();
      expect(later).toBeInstanceOf(Promise);
      await later;
      expect(yieldIfTurnIsLong()).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
  });

  it('lets waiting pieces go lowest order first, pieces of the same order first in, first out', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(yieldIfTurnIsLong()).toBeUndefined();
    busy(TURN_BUDGET_MS + 1);
    const went: string[] = [];
    const wait = (name: string, order?: number) => yieldIfTurnIsLong(order)!.then(() => went.push(name));
    await Promise.all([
      wait('late', -10),
      wait('early', -20),
      wait('first', -30),
      wait('early again', -20),
      wait('now'),
    ]);
    expect(went).toEqual(['first', 'early', 'early again', 'late', 'now']);
  });

  it('gives work begun long ago an order no older than a second', () => {
    const now = performance.now();
    expect(orderSince(now - 200)).toBe(now - 200);
    expect(orderSince(now - 60_000)).toBeGreaterThanOrEqual(now - 1_000);
    expect(orderSince(now - 60_000)).toBeLessThan(now - 900);
  });
});
