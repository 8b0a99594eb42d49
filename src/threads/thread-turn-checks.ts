import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DomainError } from '../domain/decider';
import { isEnded } from '../domain/run';
import { StreamWatch } from '../live/stream-watch';
import type { AgentRun } from '../agents/agent-run/agent-run.state';
import { ThreadTurns } from '../agents/thread-turns.port';
import { ThreadsReadModel } from './queries/threads.read-model';
import { threadDecider, threadStream } from './thread';

/** The threads feature's answers to what a run on a thread asks (see ThreadTurns). */
@Injectable()
export class ThreadTurnChecks implements ThreadTurns {
  private readonly logger = new Logger(ThreadTurns.name);

  constructor(
    private readonly actors: ActorRegistry,
    private readonly watch: StreamWatch,
    private readonly threads: ThreadsReadModel,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'readYourWritesTimeoutMs'>,
  ) {}

  /** The thread as its stream has it (not the read model, which may lag): it exists, is the agent's, not archived. */
  async checkTurn(threadId: string, agentId: string): Promise<void> {
    const thread = await this.actors.of(threadStream(threadId), threadDecider).read();
    if (!thread) {
      throw new DomainError('unprocessable', `Thread ${threadId} does not exist`, [
        { path: 'threadId', message: 'is not a thread (POST /v1/threads creates one)' },
      ]);
    }
    if (thread.agentId !== agentId) {
      throw new DomainError('conflict', `Thread ${threadId} belongs to agent ${thread.agentId}, not ${agentId}`);
    }
    if (thread.archivedAt) throw new DomainError('conflict', `Thread ${threadId} is archived`);
  }

  lastRunId(threadId: string): string | undefined {
    return this.threads.lastMessages(threadId, 1)[0]?.runId;
  }

  /**
   * A run's end and its exchange are two events on two streams (the exchange is added by a process manager after
   * the end), so a read model that shows the end may not show the turn yet: this waits for the threads read model
   * to show the run settled.
   */
  async recorded(run: AgentRun): Promise<void> {
    if (!run.threadId || !isEnded(run.status)) return;
    const { id } = run;
    const timeoutMs = this.config.readYourWritesTimeoutMs;
    const settled = () => !this.threads.isRunOpen(id);
    if (await this.watch.until(threadStream(run.threadId), settled, timeoutMs)) return;
    this.logger.warn(`The turn of run ${id} was not in thread ${run.threadId} within ${timeoutMs} ms`);
  }
}
