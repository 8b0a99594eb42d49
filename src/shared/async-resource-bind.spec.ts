import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { installAsyncResourceBind } from './async-resource-bind';

describe('AsyncResource.prototype.bind, as installed at start', () => {
  const original = AsyncResource.prototype.bind;
  beforeAll(() => installAsyncResourceBind());
  afterAll(() => (AsyncResource.prototype.bind = original));

  it('runs the function in the async scope and context it was bound in, with its this, arguments and result', () => {
    const storage = new AsyncLocalStorage<string>();
    const resource = new AsyncResource('test');
    const seen: unknown[] = [];
    const bound = storage.run('bound here', () =>
      AsyncResource.bind(function (this: unknown, a: number, b: number) {
        seen.push(this, executionAsyncId() !== 0, storage.getStore());
        return a + b;
      }),
    );
    const target = { bound };
    expect(target.bound(1, 2)).toBe(3);
    expect(seen).toEqual([target, true, 'bound here']);
    expect(bound.length).toBe(2);

    const bindWithThis = resource.bind as unknown as (fn: () => unknown, thisArg: unknown) => () => unknown;
    const withThis = bindWithThis.call(
      resource,
      function (this: unknown) {
        return [this, executionAsyncId()];
      },
      'self',
    );
    expect(withThis()).toEqual(['self', resource.asyncId()]);
    expect((withThis as unknown as { asyncResource: AsyncResource }).asyncResource).toBe(resource);
    expect(() => resource.bind(42 as never)).toThrow(/argument must be of type function/);
  });

  it('lets what a bound function reaches die in a minor GC, rather than be promoted to the old generation', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
    const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
    gc();
    const before = oldSpace();
    for (let i = 0; i < 300; i++) {
      const reached = new Array<number>(10_000).fill(i + 0.5); // 80 KB, young
      AsyncResource.bind(() => reached.length);
      gc({ type: 'minor' });
    }
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    expect(oldSpace() - before).toBeLessThan(8 * 2 ** 20); // Node's own bind promotes all 24 MB
  });
});
