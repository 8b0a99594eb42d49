import { createHash } from 'node:crypto';
import { Decider, DomainError, DomainEvent } from '../domain/decider';

/**
 * Agent names are unique because workflow steps name agents. Each name has a stream of its own; claiming it
 * with the expected revision makes the name unique across every instance on one store.
 */
export interface AgentNameState {
  claimedBy: string | null;
  claimedAt: string | null;
}

/**
 * A claim is an orphan when its agent does not hold the name: it was never created (the process died between the
 * two appends), was archived, or was renamed (or the rename stopped before the agent changed) and the release
 * never came. After this long, far beyond any request's lifetime, a new claim that names the orphan's agent id
 * may take the name over.
 */
export const ORPHANED_CLAIM_AFTER_MS = 30_000;

export type ClaimAgentName = {
  type: 'ClaimAgentName';
  name: string;
  agentId: string;
  /** Set when the caller saw that the current claim's agent does not hold the name (see above). */
  orphanOf?: string;
  /**
   * A rename claims anew even a name its agent already holds (an old claim left by a release that never came),
   * so the claim is young again while the agent changes, and no one takes it over as an orphan meanwhile.
   */
  refresh?: boolean;
};
/**
 * Frees the name, if `agentId` holds it through a claim made no later than `claimedBefore` (when the agent
 * stopped using the name): a newer claim, from the agent being renamed back meanwhile, stays.
 */
export type ReleaseAgentName = { type: 'ReleaseAgentName'; name: string; agentId: string; claimedBefore: string };
export type AgentNameCommand = ClaimAgentName | ReleaseAgentName;

export type AgentNameClaimed = DomainEvent<'AgentNameClaimed', { name: string; agentId: string; claimedAt: string }>;
export type AgentNameReleased = DomainEvent<'AgentNameReleased', { name: string; agentId: string; releasedAt: string }>;
export type AgentNameEvent = AgentNameClaimed | AgentNameReleased;

export const agentNameStream = (name: string) => `agentname-${createHash('sha256').update(name).digest('hex')}`;

export const agentNameDecider: Decider<AgentNameState, AgentNameCommand, AgentNameEvent> = {
  initialState: { claimedBy: null, claimedAt: null },
  // A name's stream is written again only on a rename or an archive.
  cacheActors: false,

  decide(state, command, now) {
    if (command.type === 'ReleaseAgentName') return release(state, command, now);
    const { name, agentId, orphanOf, refresh } = command;
    if (state.claimedBy === agentId && !refresh) return [];
    if (state.claimedBy && state.claimedBy !== agentId) {
      const age = now.getTime() - Date.parse(state.claimedAt ?? '');
      const orphaned = orphanOf === state.claimedBy && age >= ORPHANED_CLAIM_AFTER_MS;
      if (!orphaned) {
        throw new DomainError('conflict', `An agent named "${name}" already exists`, [
          { path: 'name', message: 'is already used by another agent' },
        ]);
      }
    }
    return [{ type: 'AgentNameClaimed', data: { name, agentId, claimedAt: now.toISOString() } }];
  },

  evolve(_state, event) {
    if (event.type === 'AgentNameReleased') return { claimedBy: null, claimedAt: null };
    return { claimedBy: event.data.agentId, claimedAt: event.data.claimedAt };
  },
};

function release(state: AgentNameState, command: ReleaseAgentName, now: Date): AgentNameEvent[] {
  const { name, agentId, claimedBefore } = command;
  if (state.claimedBy !== agentId || Date.parse(state.claimedAt ?? '') > Date.parse(claimedBefore)) return [];
  return [{ type: 'AgentNameReleased', data: { name, agentId, releasedAt: now.toISOString() } }];
}
