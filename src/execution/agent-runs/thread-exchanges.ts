import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import {
  AgentRunCancelled,
  AgentRunSucceeded,
  agentRunStream,
  keepsTurn,
} from '../../agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { toAgentRun } from '../../agents/agent-run/agent-run.view';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { threadDecider, threadStream } from '../../threads/thread';
import { exchangeOf, interruptedExchangeOf } from '../agent-loop/run-messages';

/**
 * The process manager that adds a run's exchange to its thread once the run has succeeded, or was interrupted by a
 * later turn (`multitask: interrupt`: what it had said, marked interrupted). A failed run, or one cancelled
 * otherwise, adds nothing. It follows the two endings from its own checkpoint; the thread records each run's
 * exchange once, so handling an event twice changes nothing.
 */
@Injectable()
export class ThreadExchanges extends ProcessManager {
  protected readonly name = 'thread-exchanges';
  protected override readonly follows = { filter: { eventTypes: ['AgentRunSucceeded', 'AgentRunCancelled'] } };
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
      if (!threadId || !keepsTurn(event)) continue;
      const { partialOutput } = event.data as AgentRunCancelled['data'];
      try {
        await this.persistently(
          () => this.record(threadId, runId, partialOutput),
          `Adding the exchange of run ${runId} to thread ${threadId}`,
        );
      } catch (error) {
        if (this.stopping) throw error;
        this.logger.warn(`The exchange of run ${runId} was not added to thread ${threadId}: ${String(error)}`);
      }
    }
  }

  private async record(threadId: string, runId: string, partialOutput: string | undefined): Promise<void> {
    const run = await this.actors.of(agentRunStream(runId), agentRunDecider).read();
    if (run?.status !== 'succeeded' && run?.status !== 'cancelled') return;
    const view = toAgentRun(run);
    const messages = run.status === 'succeeded' ? exchangeOf(view) : interruptedExchangeOf(view, partialOutput);
    const context = { correlationId: runId, causationId: runId };
    await this.actors.send(
      threadStream(threadId),
      threadDecider,
      { type: 'RecordExchange', threadId, runId, messages },
      context,
    );
  }
}
