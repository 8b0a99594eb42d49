import type { ModelAttempt, Usage } from '../../domain/run';
import type { ModelProviders, OpenedModel } from '../../models/model-providers';
import type { ModelRunError } from '../../models/model-run-error';

/**
 * Whether a failed model call may be made again on another model: the failure was the provider's, not the request's.
 * That covers a provider that cannot be reached, answers 5xx, 408 or 429 (after the retries the fetch makes), breaks
 * off its answer, or is not configured here. It does not cover a 4xx about the request itself (a schema the provider
 * refuses, a context too long), an answer that does not match the output schema, or a cancel or time limit.
 */
export function fallsBack(error: ModelRunError): boolean {
  if (error.code === 'provider_unreachable' || error.code === 'provider_not_configured') return true;
  if (error.code !== 'provider_error') return false;
  const status = error.status;
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/**
 * The models a run may use, in order: the agent's model, then its `fallbackModels`. The loop calls the current one;
 * when a call fails in a way `fallsBack` allows, the chain moves to the next model, and the loop makes the call again
 * there with the same messages. It keeps what each model was used for, for the run's record and its cost.
 */
export class ModelChain {
  private at = 0;
  private opened: OpenedModel | undefined;
  private closedAttempts = 0;
  private readonly used: ModelAttempt[] = [];

  constructor(
    private readonly models: string[],
    private readonly providers: ModelProviders,
  ) {}

  /** The model calls go to now, as `provider/model`. */
  get id(): string {
    return this.models[this.at];
  }

  /** The current model, opened on first use (which throws `provider_not_configured` for a provider not set up). */
  current(): OpenedModel {
    this.opened ??= this.providers.open(this.id);
    return this.opened;
  }

  /** Tokens reported by a call of the current model. */
  spent(usage: Usage): void {
    const attempt = this.attempt();
    attempt.usage = {
      inputTokens: attempt.usage.inputTokens + usage.inputTokens,
      outputTokens: attempt.usage.outputTokens + usage.outputTokens,
    };
  }

  /**
   * Records the current model's failure; true when the call should be made again on the next model (which is then
   * current), false when the run fails with `error`.
   */
  failed(error: ModelRunError): boolean {
    const attempt = this.attempt();
    attempt.error = {
      code: error.code,
      message: error.message,
      ...(error.status !== undefined && { status: error.status }),
    };
    if (!fallsBack(error) || this.at + 1 >= this.models.length) return false;
    this.closeCurrent();
    this.at++;
    return true;
  }

  /** HTTP requests sent to the providers so far, retries included, over every model used. */
  attempts(): number {
    return this.closedAttempts + (this.opened?.attempts() ?? 0);
  }

  /** Every model used, in order, the last being the one that answered unless it has an error. */
  attemptsMade(): ModelAttempt[] {
    return this.used.map((attempt) => ({ ...attempt }));
  }

  close(): void {
    this.closeCurrent();
  }

  private attempt(): ModelAttempt {
    let attempt = this.used[this.at];
    if (!attempt) {
      attempt = { model: this.id, usage: { inputTokens: 0, outputTokens: 0 } };
      this.used[this.at] = attempt;
    }
    return attempt;
  }

  private closeCurrent(): void {
    if (!this.opened) return;
    this.closedAttempts += this.opened.attempts();
    this.opened.close();
    this.opened = undefined;
  }
}
