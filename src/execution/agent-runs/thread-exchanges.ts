import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentRunSucceeded, agentRunStream } from '../../agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { toAgentRun } from '../../agents/agent-run/agent-run.view';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { threadDecider, threadStream } from '../../threads/thread';
import { exchangeOf } from '../agent-loop/run-messages';

/**
 * The process manager that adds a run's exchange to its thread once the run has succeeded (a failed or cancelled
 * run adds nothing). It follows `AgentRunSucceeded` from its own checkpoint; the thread records each run's
 * exchange once, so handling an event twice changes nothing.
 */
@Injectable()
export class ThreadExchanges extends ProcessManager {
  protected readonly name = 'thread-exchanges';
  protected override readonly follows = { filter: { eventTypes: ['AgentRunSucceeded'] } };
  /** Most runs are on no thread: their endings cost no write each (a restart reads a second of the log again). */
  protected override readonly checkpointEveryMs = 1000;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override async handle(events: RecordedEvent[]): Promise<void> {
    for (const event of events) {
      const { runId, threadId } = event.data as AgentRunSucceeded['data'];
      if (!threadId) continue;
      try {
        await this.persistently(
          () => this.record(threadId, runId),
          `Adding the exchange of run ${runId} to thread ${threadId}`,
        );
      } catch (error) {
        if (this.stopping) throw error;
        this.logger.warn(`The exchange of run ${runId} was not added to thread ${threadId}: ${String(error)}`);
      }
    }
  }

  private async record(threadId: string, runId: string): Promise<void> {
    const run = await this.actors.of(agentRunStream(runId), agentRunDecider).read();
    if (run?.status !== 'succeeded') return;
    const messages = exchangeOf(toAgentRun(run));
    const context = { correlationId: runId, causationId: runId };
    await this.actors.send(
      threadStream(threadId),
      threadDecider,
      { type: 'RecordExchange', threadId, runId, messages },
      context,
    );
  }
}
