import { Slots } from './slots';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Slots', () => {
  it('gives at most its size at once, the rest in the order asked, and frees a slot once per release', async () => {
    const slots = new Slots(2);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const order: string[] = [];
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then((release) => (order.push('fourth'), release));
    await nextTurn();
    await nextTurn();
    expect(order).toEqual([]);
    expect([slots.taken, slots.queued]).toEqual([2, 2]);

    first();
    first();
    const releaseThird = await third;
    await nextTurn();
    await nextTurn();
    expect(order).toEqual(['third']);
    second();
    (await fourth)();
    releaseThird();
    expect([slots.taken, slots.queued]).toEqual([0, 0]);
  });

  it('hands out one slot per turn of the event loop, so that what holders do first never runs in one turn', async () => {
    const slots = new Slots(10);
    const turns: number[] = [];
    let turn = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turn++;
      setImmediate(count);
    };
    setImmediate(count);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        slots.acquire().then((release) => {
          turns.push(turn);
          release();
        }),
      ),
    );
    counting = false;
    expect(new Set(turns).size).toBe(5);
  });
});
