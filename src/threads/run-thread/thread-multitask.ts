import { Injectable } from '@nestjs/common';
import type { AgentRun, Multitask, TurnsSuperseded } from '../../agents/agent-run/agent-run.state';
import { AgentRuns } from '../../agents/agent-runs.port';
import { DomainError } from '../../domain/decider';
import { ThreadsReadModel } from '../queries/threads.read-model';

/**
 * What a thread's new turn does with the turns of it that have not ended (`multitask`). The requests of one thread
 * are taken one at a time in this instance, from the look at its open turns until the new turn is in the read
 * model, so two of them never both find the thread idle. (Across instances each looks at its own read model, which
 * a turn queued on another reaches a moment later.)
 */
@Injectable()
export class ThreadMultitask {
  /** Per thread, the end of the last request taken: the next one waits for it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly threads: ThreadsReadModel,
    private readonly runs: AgentRuns,
  ) {}

  /** Queues the turn (`queue`), after refusing it or cancelling the open turns as `multitask` says. */
  send(
    threadId: string,
    multitask: Multitask,
    queue: (superseding?: TurnsSuperseded) => Promise<AgentRun>,
  ): Promise<AgentRun> {
    return this.oneAtATime(threadId, async () => {
      const open = this.threads.openRuns(threadId);
      if (multitask === 'reject' && open.length) {
        const message = `Thread ${threadId} is busy: its turn ${open[0]} has not ended (multitask: reject)`;
        throw new DomainError('conflict', message, [], 'thread-busy');
      }
      const cuts = (multitask === 'interrupt' || multitask === 'rollback') && open.length > 0;
      const superseding = cuts ? { strategy: multitask, runIds: open } : undefined;
      const queued = await queue(superseding);
      // Queued first, then the others cancelled: should the cancels fail, the new turn still runs after them.
      if (superseding) await this.runs.supersede(open, { runId: queued.id, strategy: superseding.strategy });
      return queued;
    });
  }

  private oneAtATime<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(threadId) ?? Promise.resolve();
    const mine = before.then(work);
    const tail = mine.catch(() => undefined);
    this.tails.set(threadId, tail);
    void tail.then(() => {
      if (this.tails.get(threadId) === tail) this.tails.delete(threadId);
    });
    return mine;
  }
}
