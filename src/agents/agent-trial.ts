import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { ToolRegistry } from '../tools/tool-registry';
import { ValidationFailed } from '../shared/validation-failed';
import { Agent, agentDecider, agentStream } from './agent';
import { AgentTrials } from './agent-trials.port';
import { ScorerNames } from './scorer-names.port';
import { AgentsReadModel } from './queries/agents.read-model';
import { checkMergedAgent } from './update-agent/check-merged-agent';
import { checkAgentPatch, mergeAgentPatch } from './update-agent/update-agent.dto';

/**
 * The agent a trial runs: as it was at `version`, with `overrides` (a merge patch of its definition) applied, as a
 * PATCH would apply them but saved nowhere. A patch that breaks the definition's rules is a 400, as a PATCH's.
 */
export async function trialAgent(
  actors: ActorRegistry,
  agentId: string,
  version: number,
  overrides: Record<string, unknown> | null,
): Promise<Agent> {
  const pinned = await actors.atVersion(agentStream(agentId), agentDecider, version, `Agent ${agentId}`);
  return overrides ? { ...pinned, ...mergeAgentPatch(pinned, overrides) } : pinned;
}

/** Checks a trial's overrides as UpdateAgentHandler checks a PATCH. `name` cannot change: a trial runs as the agent. */
@Injectable()
export class AgentTrialChecks implements AgentTrials {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly registry: ToolRegistry,
    private readonly agents: AgentsReadModel,
    private readonly scorers: ScorerNames,
  ) {}

  async check(agentId: string, version: number, overrides: Record<string, unknown>): Promise<void> {
    checkAgentPatch(overrides);
    if ('name' in overrides) {
      throw new ValidationFailed([
        { path: 'name', message: 'cannot be overridden: a trial runs as the agent it tries' },
      ]);
    }
    const pinned = await trialAgent(this.actors, agentId, version, null);
    const { registry, agents, scorers } = this;
    await checkMergedAgent(mergeAgentPatch(pinned, overrides), overrides, { registry, agents, scorers });
  }
}
