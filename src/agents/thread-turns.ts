import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isEnded } from '../domain/run';
import { StreamWatch } from '../live/stream-watch';
import { threadStream } from '../threads/thread';
import type { AgentRun } from './agent-run/agent-run.state';

/**
 * Whether the turn of a run that ended on a thread is in the thread's messages yet. A run's end and its exchange
 * are two events on two streams (the exchange is added by a process manager after the end), so a read model that
 * shows the end may not show the turn yet. The threads feature, which builds on this one, answers the question
 * (`answerWith`); until it does, every turn counts as recorded.
 */
@Injectable()
export class ThreadTurns {
  private readonly logger = new Logger(ThreadTurns.name);
  private settled: (runId: string) => boolean = () => true;

  constructor(
    private readonly watch: StreamWatch,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'readYourWritesTimeoutMs'>,
  ) {}

  /** `settled(runId)`: the run is settled in the thread's read model (its exchange added, or nothing to add). */
  answerWith(settled: (runId: string) => boolean): void {
    this.settled = settled;
  }

  /**
   * Waits, as long as a write waits for the read models, until the turn of an ended run on a thread is readable, so
   * that a 200 for the run means a read of the thread's messages right after it shows the turn.
   */
  async recorded(run: AgentRun): Promise<void> {
    if (!run.threadId || !isEnded(run.status)) return;
    const { id } = run;
    const timeoutMs = this.config.readYourWritesTimeoutMs;
    if (await this.watch.until(threadStream(run.threadId), () => this.settled(id), timeoutMs)) return;
    this.logger.warn(`The turn of run ${id} was not in thread ${run.threadId} within ${timeoutMs} ms`);
  }
}
