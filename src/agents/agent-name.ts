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
 * A claim whose agent was never created (the process died between the two appends) is an orphan. After this
 * long, far beyond any request's lifetime, a new claim that names the orphan's agent id may take the name over.
 */
export const ORPHANED_CLAIM_AFTER_MS = 30_000;

export type ClaimAgentName = {
  type: 'ClaimAgentName';
  name: string;
  agentId: string;
  /** Set when the caller saw that the current claim's agent does not exist. */
  orphanOf?: string;
};
export type AgentNameCommand = ClaimAgentName;

export type AgentNameEvent = DomainEvent<'AgentNameClaimed', { name: string; agentId: string; claimedAt: string }>;

export const agentNameStream = (name: string) => `agentname-${createHash('sha256').update(name).digest('hex')}`;

export const agentNameDecider: Decider<AgentNameState, AgentNameCommand, AgentNameEvent> = {
  initialState: { claimedBy: null, claimedAt: null },

  decide(state, { name, agentId, orphanOf }, now) {
    if (state.claimedBy === agentId) return [];
    if (state.claimedBy) {
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
    return { claimedBy: event.data.agentId, claimedAt: event.data.claimedAt };
  },
};
