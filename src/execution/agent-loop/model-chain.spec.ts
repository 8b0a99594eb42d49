import { ModelRunError } from '../../models/model-run-error';
import type { ModelProviders, OpenedModel } from '../../models/model-providers';
import { ModelChain, fallsBack } from './model-chain';

describe('fallsBack', () => {
  it.each([
    [new ModelRunError('provider_unreachable', 'down'), true],
    [new ModelRunError('provider_not_configured', 'no key'), true],
    [new ModelRunError('provider_error', 'ended early'), true],
    [new ModelRunError('provider_error', '500', { status: 500 }), true],
    [new ModelRunError('provider_error', '503', { status: 503 }), true],
    [new ModelRunError('provider_error', '429', { status: 429 }), true],
    [new ModelRunError('provider_error', '408', { status: 408 }), true],
    [new ModelRunError('provider_error', '400', { status: 400 }), false],
    [new ModelRunError('provider_error', '401', { status: 401 }), false],
    [new ModelRunError('provider_error', '413', { status: 413 }), false],
    [new ModelRunError('aborted', 'cancelled'), false],
    [new ModelRunError('output_invalid', 'not the schema'), false],
  ])('%s: %s', (error, expected) => {
    expect(fallsBack(error)).toBe(expected);
  });
});

describe('ModelChain', () => {
  /** Providers that open any model, each having sent two requests, and list the models closed. */
  function providers() {
    const closed: string[] = [];
    const fake = {
      open: (id: string): OpenedModel =>
        ({
          provider: id.split('/')[0],
          model: {} as OpenedModel['model'],
          headers: {},
          attempts: () => 2,
          close: () => void closed.push(id),
        }) as OpenedModel,
    } as unknown as ModelProviders;
    return { fake, closed };
  }

  it('moves to the next model on a failure that falls back, and counts each model its own tokens', () => {
    const { fake, closed } = providers();
    const chain = new ModelChain(['a/one', 'b/two'], fake);
    chain.current();
    chain.spent({ inputTokens: 5, outputTokens: 1 });
    expect(chain.failed(new ModelRunError('provider_error', 'a answered 500', { status: 500 }))).toBe(true);
    expect(closed).toEqual(['a/one']);
    expect(chain.id).toBe('b/two');
    chain.current();
    chain.spent({ inputTokens: 7, outputTokens: 3 });
    expect(chain.attempts()).toBe(4);
    expect(chain.attemptsMade()).toEqual([
      {
        model: 'a/one',
        usage: { inputTokens: 5, outputTokens: 1 },
        error: { code: 'provider_error', message: 'a answered 500', status: 500 },
      },
      { model: 'b/two', usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
  });

  it('stays on the model, and says the run fails, after a failure that does not fall back or on the last model', () => {
    const { fake } = providers();
    const chain = new ModelChain(['a/one', 'b/two'], fake);
    expect(chain.failed(new ModelRunError('provider_error', 'bad request', { status: 400 }))).toBe(false);
    expect(chain.id).toBe('a/one');
    const last = new ModelChain(['a/one'], fake);
    expect(last.failed(new ModelRunError('provider_unreachable', 'down'))).toBe(false);
    expect(last.attemptsMade()).toEqual([
      {
        model: 'a/one',
        usage: { inputTokens: 0, outputTokens: 0 },
        error: { code: 'provider_unreachable', message: 'down' },
      },
    ]);
  });
});
