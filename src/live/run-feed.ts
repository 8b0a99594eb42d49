import { Injectable } from '@nestjs/common';
import { KeyedListeners } from '../shared/keyed-listeners';

/**
 * The text of runs executing in this instance, by run id, as the model writes it. It is not stored: a run's
 * stream shows it live to whoever watches then; the final output is recorded with the run's end. The text written
 * so far is kept until the run's execution is over, so that a stream opened mid-run starts with it.
 */
@Injectable()
export class RunFeed extends KeyedListeners<string> {
  private readonly written = new Map<string, string[]>();

  override publish(runId: string, text: string): void {
    const parts = this.written.get(runId);
    if (parts) parts.push(text);
    else this.written.set(runId, [text]);
    super.publish(runId, text);
  }

  /** The text written so far, and each piece from now on: nothing is missed or told twice between the two. */
  follow(runId: string, listener: (text: string) => void): { soFar: string; stop: () => void } {
    const soFar = this.written.get(runId)?.join('') ?? '';
    return { soFar, stop: this.subscribe(runId, listener) };
  }

  /** The text the run's model has written so far (what a run cancelled mid-answer had said). */
  soFar(runId: string): string {
    return this.written.get(runId)?.join('') ?? '';
  }

  /** The run's execution is over here: its text is in its recorded output from now on. */
  finished(runId: string): void {
    this.written.delete(runId);
  }
}
