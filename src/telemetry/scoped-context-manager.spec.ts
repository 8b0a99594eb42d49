import { executionAsyncId } from 'node:async_hooks';
import { ROOT_CONTEXT, createContextKey } from '@opentelemetry/api';
import { ScopedContextManager } from './scoped-context-manager';

const KEY = createContextKey('test');
const named = (name: string) => ROOT_CONTEXT.setValue(KEY, name);
const nameIn = (manager: ScopedContextManager) => manager.active().getValue(KEY);
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Whether Node's promise hooks are on: a promise reaction then runs with an async id of its own. They are on for the
 * whole process while any storage is enabled, so that they are off again is shown by the manager's storage having
 * been disabled (`disabledTimes`): another test file in this worker may have left a storage of its own on.
 */
async function promiseHooksOn(): Promise<boolean> {
  let id = -1;
  await Promise.resolve().then(() => (id = executionAsyncId()));
  return id !== 0;
}

describe('ScopedContextManager', () => {
  let manager: ScopedContextManager;
  let disabledTimes: () => number;
  let enteredTimes: () => number;
  beforeEach(() => {
    manager = new ScopedContextManager();
    const disable = jest.spyOn(manager['scopes'], 'disable');
    const run = jest.spyOn(manager['scopes'], 'run');
    disabledTimes = () => disable.mock.calls.length;
    enteredTimes = () => run.mock.calls.length;
  });
  afterEach(() => manager.disable());

  it('sets a context for the synchronous part of `with` only, outside an async scope', async () => {
    const seen: unknown[] = [];
    const done = manager.with(named('request'), async () => {
      seen.push(nameIn(manager));
      await tick();
      seen.push(nameIn(manager));
    });
    seen.push(nameIn(manager));
    await done;
    expect(seen).toEqual(['request', undefined, undefined]);
    expect(enteredTimes()).toBe(0);
  });

  it('nests synchronous scopes and restores the outer one', () => {
    const seen = manager.with(named('outer'), () => [
      manager.with(named('inner'), () => nameIn(manager)),
      nameIn(manager),
    ]);
    expect(seen).toEqual(['inner', 'outer']);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps the context through awaits inside an async scope, for `with` inside it too', async () => {
    const seen: unknown[] = [];
    await manager.with(named('request'), () =>
      manager.scope(named('run'), async () => {
        await tick();
        seen.push(nameIn(manager));
        await manager.with(named('model call'), async () => {
          await tick();
          seen.push(nameIn(manager));
        });
        seen.push(nameIn(manager));
      }),
    );
    expect(seen).toEqual(['run', 'model call', 'run']);
  });

  it('turns the promise hooks off once no scope is open, and on again with the next', async () => {
    let release!: () => void;
    const first = manager.scope(named('first'), () => new Promise<void>((resolve) => (release = resolve)));
    const seen: unknown[] = [];
    const second = manager.scope(named('second'), async () => {
      await tick();
      release();
      await first;
      // The first scope has ended, this one is still open: its context is kept.
      await tick();
      seen.push(nameIn(manager));
    });
    expect(await promiseHooksOn()).toBe(true);
    expect(disabledTimes()).toBe(0);
    await second;
    expect(seen).toEqual(['second']);
    expect(manager.openScopes).toBe(0);
    expect(disabledTimes()).toBe(1);

    await manager.scope(named('third'), async () => {
      await tick();
      seen.push(nameIn(manager));
    });
    expect(seen).toEqual(['second', 'third']);
    expect(disabledTimes()).toBe(2);
  });

  it('closes a scope whose work throws or rejects', async () => {
    expect(() =>
      manager.scope(named('thrown'), () => {
        throw new Error('at once');
      }),
    ).toThrow('at once');
    await expect(
      manager.scope(named('rejected'), async () => {
        await tick();
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
    expect(manager.openScopes).toBe(0);
    expect(disabledTimes()).toBe(2);
  });

  it('binds a function to a context', async () => {
    const bound = manager.bind(named('bound'), () => nameIn(manager));
    expect(bound()).toBe('bound');
    expect(await manager.scope(named('run'), async () => (await tick(), bound()))).toBe('bound');
  });
});
