import { AsyncLocalStorage } from 'node:async_hooks';
import { Context, ContextManager, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The OpenTelemetry context while tracing is on, with an AsyncLocalStorage only where one is needed.
 *
 * - Inside an async scope (`scope`: a run, a workflow step, a scheduled tick), the context follows every promise
 *   and callback, as with the SDK's AsyncLocalStorageContextManager: the AI SDK reads the active context after
 *   its awaits.
 * - Outside one (requests), `with` sets the context for its callback's synchronous part only, like a stack. A
 *   request's context travels explicitly instead (`withTrace` in `shared/trace-context.ts`).
 *
 * On Node 20, an AsyncLocalStorage that has once been entered turns on promise hooks for every promise in the
 * process, and they stay on until the storage is disabled. So the storage is disabled whenever no scope is open,
 * and enabled again by the next one. A promise made inside a scope that is still pending when the last scope ends
 * (work the scope did not wait for) then continues without its context: its spans start traces of their own.
 */
export class ScopedContextManager implements ContextManager {
  private readonly scopes = new AsyncLocalStorage<Context>();
  /** The context of a synchronous `with`, outside any scope. */
  private current: Context | undefined;
  private open = 0;

  active(): Context {
    return this.current ?? this.scopes.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    if (this.current === undefined && this.scopes.getStore() !== undefined)
      return this.scopes.run(context, () => fn.apply(thisArg, args));
    const previous = this.current;
    this.current = context;
    try {
      return fn.apply(thisArg, args);
    } finally {
      this.current = previous;
    }
  }

  /** Runs `work` in an async scope of `context`: the scope is open until `work`'s promise settles. */
  scope<T>(context: Context, work: () => T): T {
    const previous = this.current;
    this.current = undefined;
    this.open++;
    let result: T;
    try {
      result = this.scopes.run(context, work);
    } catch (error) {
      this.close();
      throw error;
    } finally {
      this.current = previous;
    }
    if (result instanceof Promise) result.then(this.close, this.close);
    else this.close();
    return result;
  }

  /** How many async scopes are open (for tests). */
  get openScopes(): number {
    return this.open;
  }

  private readonly close = (): void => {
    if (--this.open === 0) this.scopes.disable();
  };

  /** A function bound to `context`; other targets (event emitters) are returned as they are. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => (target as (...args: unknown[]) => unknown).apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = undefined;
    this.scopes.disable();
    return this;
  }
}
