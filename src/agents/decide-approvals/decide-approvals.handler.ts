import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { AgentRun } from '../agent-run/agent-run.state';
import { agentRunDecider } from '../agent-run/agent-run';
import { agentRunStream } from '../agent-run/agent-run.events';
import { toAgentRun } from '../agent-run/agent-run.view';
import { DecideApprovalsCommand } from './decide-approvals.command';
import { traceOf } from '../../shared/trace-context';

/**
 * Records a person's decisions on a waiting run's tool calls. Once every pending call has one, the run is queued
 * again, and one executor (whichever claims it first, on any instance) resumes it from the log.
 */
@CommandHandler(DecideApprovalsCommand)
export class DecideApprovalsHandler implements ICommandHandler<DecideApprovalsCommand, AgentRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: DecideApprovalsCommand): Promise<AgentRun> {
    const { agentId, runId, decisions } = command;
    const actor = this.actors.of(agentRunStream(runId), agentRunDecider);
    const run = await actor.read();
    if (run?.agentId !== agentId) {
      throw new DomainError('not_found', `Agent run ${runId} of agent ${agentId} does not exist`);
    }
    const { state, position } = await actor.send(
      { type: 'DecideApprovals', decisions },
      { correlationId: runId, causationId: runId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(position);
    return toAgentRun(state!);
  }
}
