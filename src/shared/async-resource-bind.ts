import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) => unknown;

/**
 * Node's `AsyncResource.prototype.bind` (20 and later) gives every function it binds an `asyncResource` accessor
 * made of closures of its own. V8 then gives each bound function a fresh hidden class, which lives outside the
 * young generation, so whatever the function reaches (a whole request, for the binds NestJS makes for every
 * interceptor and Fastify for every body) survives the minor GCs, is promoted, and is only freed by a full GC:
 * the heap grows to several times what is live. This `bind` does the same (the function runs in the resource's
 * async scope, with `length` and `asyncResource` as before) with a plain `asyncResource` value, so bound functions
 * share one hidden class and die young. Installed once, at start (main.ts).
 */
export function installAsyncResourceBind(): void {
  const bind: Bind = function (fn, thisArg) {
    if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
    const resource = this;
    const bound =
      thisArg === undefined
        ? function (this: unknown, ...args: unknown[]) {
            return resource.runInAsyncScope(fn, this, ...args);
          }
        : resource.runInAsyncScope.bind(resource, fn, thisArg);
    Object.defineProperty(bound, 'length', {
      configurable: true,
      enumerable: false,
      writable: false,
      value: fn.length,
    });
    Object.defineProperty(bound, 'asyncResource', {
      configurable: true,
      enumerable: true,
      writable: true,
      value: this,
    });
    return bound;
  };
  (AsyncResource.prototype as unknown as { bind: Bind }).bind = bind;
}
