import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { Agent, agentDecider, agentStream } from '../agent';
import { AgentNameClaims } from '../agent-name-claims';
import { AgentsReadModel } from '../queries/agents.read-model';
import { WorkflowsUsingAgent } from '../workflows-using-agent.port';
import { ArchiveAgentCommand } from './archive-agent.command';
import { traceOf } from '../../shared/trace-context';

/**
 * Archives the agent, then frees its name. Archiving again answers the archived agent and frees the name again,
 * should the first release have failed; either way a claim by an archived agent is an orphan (see agent-name.ts).
 */
@CommandHandler(ArchiveAgentCommand)
export class ArchiveAgentHandler implements ICommandHandler<ArchiveAgentCommand, Agent> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly names: AgentNameClaims,
    private readonly clock: Clock,
    private readonly agents: AgentsReadModel,
    private readonly workflows: WorkflowsUsingAgent,
  ) {}

  async execute(command: ArchiveAgentCommand): Promise<Agent> {
    const { agentId, ifMatch, force } = command;
    if (!force) this.refuseWhileWorkflowsUse(agentId);
    const context = { correlationId: agentId, causationId: agentId, trace: traceOf(command) };
    const { state, position } = await this.actors.send(
      agentStream(agentId),
      agentDecider,
      { type: 'ArchiveAgent', agentId, ifMatch },
      context,
    );
    const agent = state!;
    // An archived agent is never renamed, so any claim it holds on its name is one to release.
    await this.names.release(agent.name, agentId, this.clock.now().toISOString(), context);
    await this.readYourWrites.waitFor(position);
    return agent;
  }

  /** Workflows name agents in their steps: archiving one they use would fail their next runs. */
  private refuseWhileWorkflowsUse(agentId: string): void {
    const agent = this.agents.get(agentId);
    if (!agent || agent.status === 'archived') return;
    const users = this.workflows.usingAgent(agent.name);
    if (users.length === 0) return;
    const named = users.map(({ id, name, steps }) => `"${name}" (${id}, step ${steps.join(', ')})`).join('; ');
    throw new DomainError(
      'conflict',
      `Agent "${agent.name}" is used by workflows that are not archived: ${named}. Change or archive them first, or archive anyway with ?force=true (their runs will then fail at that step)`,
      users.map(({ id, name, steps }) => ({
        path: 'force',
        message: `workflow ${id} "${name}" names this agent in step ${steps.join(', ')}`,
      })),
    );
  }
}
