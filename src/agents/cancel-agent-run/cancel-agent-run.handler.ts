import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { AgentRun } from '../agent-run/agent-run.state';
import { agentRunDecider } from '../agent-run/agent-run';
import { agentRunStream } from '../agent-run/agent-run.events';
import { toAgentRun } from '../agent-run/agent-run.view';
import { CancelAgentRunCommand } from './cancel-agent-run.command';
import { traceOf } from '../../shared/trace-context';

/**
 * A queued run ends cancelled at once; for a running one the cancel is recorded, and the instance executing it
 * aborts its model and tool calls and records the end. Cancelling a cancelled run changes nothing.
 */
@CommandHandler(CancelAgentRunCommand)
export class CancelAgentRunHandler implements ICommandHandler<CancelAgentRunCommand, AgentRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: CancelAgentRunCommand): Promise<AgentRun> {
    const { agentId, runId } = command;
    const actor = this.actors.of(agentRunStream(runId), agentRunDecider);
    const run = await actor.read();
    if (run?.agentId !== agentId)
      throw new DomainError('not_found', `Agent run ${runId} of agent ${agentId} does not exist`);
    const { state, position } = await actor.send(
      { type: 'CancelAgentRun' },
      { correlationId: runId, causationId: runId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(position);
    return toAgentRun(state!);
  }
}
