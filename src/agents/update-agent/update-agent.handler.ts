import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ChangedMeanwhile, changedFields, checkIfMatch } from '../../domain/definition';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { ToolRegistry } from '../../tools/tool-registry';
import { Agent, AgentDefinition, AgentUpdated, agentDecider, agentStream } from '../agent';
import { AgentNameClaims } from '../agent-name-claims';
import { AgentsReadModel } from '../queries/agents.read-model';
import { checkMergedAgent } from './check-merged-agent';
import { ScorerNames } from '../scorer-names.port';
import { agentDefinition, mergeAgentPatch } from './update-agent.dto';
import { UpdateAgentCommand } from './update-agent.command';
import { TraceContext, traceOf } from '../../shared/trace-context';

const MAX_MERGES = 5;

/**
 * Merges the patch onto the agent as it is, checks the result as a create would, and records what changed. A
 * rename claims the new name first, then changes the agent, then releases the old name: a failure between the
 * steps leaves a claim the agent does not use, which the next claim of that name takes over (see agent-name.ts),
 * never two agents with one name.
 */
@CommandHandler(UpdateAgentCommand)
export class UpdateAgentHandler implements ICommandHandler<UpdateAgentCommand, Agent> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly names: AgentNameClaims,
    private readonly tools: ToolRegistry,
    private readonly agents: AgentsReadModel,
    private readonly scorers: ScorerNames,
  ) {}

  async execute(command: UpdateAgentCommand): Promise<Agent> {
    const { agentId, patch, ifMatch } = command;
    for (let merge = 1; ; merge++) {
      const agent = await this.actors.of(agentStream(agentId), agentDecider).read();
      if (!agent) throw new DomainError('not_found', `Agent ${agentId} does not exist`);
      checkIfMatch('Agent', agentId, agent, { ifMatch });
      if (agent.status === 'archived') throw new DomainError('conflict', `Agent ${agentId} is archived`);
      const next = mergeAgentPatch(agent, patch);
      await checkMergedAgent(next, patch, { registry: this.tools, agents: this.agents, scorers: this.scorers });
      try {
        return await this.apply(agent, changedFields(agentDefinition(agent), next), ifMatch, traceOf(command));
      } catch (error) {
        // Another request changed the agent after it was read: merge onto the newer version.
        if (!(error instanceof ChangedMeanwhile) || merge >= MAX_MERGES) throw error;
      }
    }
  }

  private async apply(
    agent: Agent,
    changes: Partial<AgentDefinition>,
    ifMatch: number[] | undefined,
    trace: TraceContext | undefined,
  ): Promise<Agent> {
    const agentId = agent.id;
    const context = { correlationId: agentId, causationId: agentId, trace };
    if (changes.name !== undefined) await this.names.claim(changes.name, agentId, context, true);
    const { state, events, position } = await this.actors.send(
      agentStream(agentId),
      agentDecider,
      { type: 'UpdateAgent', agentId, changes, baseVersion: agent.version, ifMatch },
      context,
    );
    const updated = events[0] as AgentUpdated | undefined;
    if (updated && changes.name !== undefined) {
      await this.names.release(agent.name, agentId, updated.data.updatedAt, context);
    }
    await this.readYourWrites.waitFor(position);
    return state!;
  }
}
