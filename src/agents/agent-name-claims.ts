import { Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { CommandContext } from '../actors/actor';
import { DomainError } from '../domain/decider';
import { agentDecider, agentStream } from './agent';
import { agentNameDecider, agentNameStream } from './agent-name';

/**
 * Claims and releases agent names on their `agentname-<sha256>` streams. A name belongs to the agent its claim
 * names only while that agent is active and still has the name; any other claim is an orphan (see agent-name.ts).
 */
@Injectable()
export class AgentNameClaims {
  private readonly logger = new Logger(AgentNameClaims.name);

  constructor(private readonly actors: ActorRegistry) {}

  /** `refresh`: a rename, which claims anew even a name the agent already holds. */
  async claim(name: string, agentId: string, context: CommandContext, refresh = false): Promise<void> {
    const stream = agentNameStream(name);
    try {
      // Most names are new: skip reading the stream; a taken name shows up as a conflict and is read then. (No
      // actor is kept for a name's stream: see agentNameDecider.)
      await this.actors.send(stream, agentNameDecider, { type: 'ClaimAgentName', name, agentId, refresh }, context, {
        newStream: true,
      });
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      const { claimedBy } = await this.actors.of(stream, agentNameDecider).read();
      if (claimedBy && (await this.holds(claimedBy, name))) throw error;
      const orphanOf = claimedBy ?? undefined;
      await this.actors.send(
        stream,
        agentNameDecider,
        { type: 'ClaimAgentName', name, agentId, refresh, orphanOf },
        context,
      );
    }
  }

  /**
   * Frees a name the agent stopped using at `claimedBefore` (renamed or archived). Should this fail, the claim
   * is an orphan that the next claim of the name takes over, so the failure is only logged.
   */
  async release(name: string, agentId: string, claimedBefore: string, context: CommandContext): Promise<void> {
    try {
      await this.actors.send(
        agentNameStream(name),
        agentNameDecider,
        { type: 'ReleaseAgentName', name, agentId, claimedBefore },
        context,
      );
    } catch (error) {
      this.logger.warn(`The name "${name}" stays claimed by ${agentId} until it is claimed again: ${String(error)}`);
    }
  }

  private async holds(agentId: string, name: string): Promise<boolean> {
    const agent = await this.actors.of(agentStream(agentId), agentDecider).read();
    return agent !== null && agent.status !== 'archived' && agent.name === name;
  }
}
