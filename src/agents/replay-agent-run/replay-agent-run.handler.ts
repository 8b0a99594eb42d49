import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { AgentRun } from '../agent-run/agent-run.state';
import { AgentRunQueued, agentRunStream } from '../agent-run/agent-run.events';
import { RunAgentCommand } from '../run-agent/run-agent.command';
import { ReplayAgentRunCommand } from './replay-agent-run.command';
import { traceOf, withTrace } from '../../shared/trace-context';

/**
 * Queues a new run of the agent, as it is now, with the task, context and own `outputSchema` the replayed run was
 * queued with (its first event), the task or context given instead, and `replayOf` naming it. The new run is a
 * run of its own: not on the replayed run's thread, nor a step of its workflow run.
 */
@CommandHandler(ReplayAgentRunCommand)
export class ReplayAgentRunHandler implements ICommandHandler<ReplayAgentRunCommand, AgentRun> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
  ) {}

  async execute(command: ReplayAgentRunCommand): Promise<AgentRun> {
    const { agentId, runId, task, context } = command;
    const { events } = await this.store.readStream(agentRunStream(runId), { maxCount: 1 });
    const queued = events[0]?.type === 'AgentRunQueued' ? (events[0].data as AgentRunQueued['data']) : undefined;
    if (!queued || queued.agentId !== agentId) {
      throw new DomainError('not_found', `Agent ${agentId} has no run ${runId}`);
    }
    const replay = new RunAgentCommand(
      agentId,
      task ?? queued.task,
      context ?? queued.context,
      queued.outputSchema ?? null,
      undefined,
      runId,
    );
    // The run it queues belongs to this command's trace.
    return this.commands.execute(withTrace(replay, traceOf(command)));
  }
}
