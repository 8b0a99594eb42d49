import { given } from '../../test/support/decider-specification';
import { AgentNameEvent, ORPHANED_CLAIM_AFTER_MS, agentNameDecider, agentNameStream } from './agent-name';

const claimedAt = new Date('2026-01-01T00:00:00.000Z');
const claimed: AgentNameEvent = {
  type: 'AgentNameClaimed',
  data: { name: 'researcher', agentId: 'agent_1', claimedAt: claimedAt.toISOString() },
};
const later = (ms: number) => new Date(claimedAt.getTime() + ms);

describe('agent name decider', () => {
  it('claims a free name', () => {
    given(agentNameDecider, [])
      .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_1' }, claimedAt)
      .then([claimed]);
  });

  it('refuses a name another agent holds', () => {
    given(agentNameDecider, [claimed])
      .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_2' })
      .thenRefuses('conflict', /already exists/);
  });

  it('accepts the same claim again as a no-op', () => {
    given(agentNameDecider, [claimed])
      .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_1' })
      .then([]);
  });

  it('takes over an orphaned claim once it is old enough', () => {
    const at = later(ORPHANED_CLAIM_AFTER_MS);
    given(agentNameDecider, [claimed])
      .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_2', orphanOf: 'agent_1' }, at)
      .then([
        { type: 'AgentNameClaimed', data: { name: 'researcher', agentId: 'agent_2', claimedAt: at.toISOString() } },
      ]);
  });

  it('does not take over a claim that may still be in flight', () => {
    given(agentNameDecider, [claimed])
      .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_2', orphanOf: 'agent_1' }, later(1000))
      .thenRefuses('conflict');
  });

  it('does not take over a claim held by an agent other than the orphan named', () => {
    given(agentNameDecider, [claimed])
      .when(
        { type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_2', orphanOf: 'agent_9' },
        later(ORPHANED_CLAIM_AFTER_MS * 2),
      )
      .thenRefuses('conflict');
  });

  it('gives each name its own stream, names that differ only in case included', () => {
    expect(agentNameStream('Researcher')).not.toBe(agentNameStream('researcher'));
    expect(agentNameStream('researcher')).toMatch(/^agentname-[0-9a-f]{64}$/);
  });

  describe('releasing', () => {
    const release = (agentId: string, claimedBefore: string) =>
      ({ type: 'ReleaseAgentName', name: 'researcher', agentId, claimedBefore }) as const;
    const released: AgentNameEvent = {
      type: 'AgentNameReleased',
      data: { name: 'researcher', agentId: 'agent_1', releasedAt: later(5000).toISOString() },
    };

    it('frees a name its agent no longer uses, and the name can be claimed at once', () => {
      given(agentNameDecider, [claimed])
        .when(release('agent_1', later(1000).toISOString()), later(5000))
        .then([released]);
      given(agentNameDecider, [claimed, released])
        .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_2' }, later(6000))
        .then([
          {
            type: 'AgentNameClaimed',
            data: { name: 'researcher', agentId: 'agent_2', claimedAt: later(6000).toISOString() },
          },
        ]);
    });

    it('leaves a name held by another agent, or a free one, as it is', () => {
      given(agentNameDecider, [claimed])
        .when(release('agent_2', later(1000).toISOString()))
        .then([]);
      given(agentNameDecider, [])
        .when(release('agent_1', later(1000).toISOString()))
        .then([]);
    });

    it('keeps a claim made after the agent stopped using the name (it was renamed back meanwhile)', () => {
      given(agentNameDecider, [claimed])
        .when(release('agent_1', later(-1).toISOString()))
        .then([]);
    });

    it('claims a name its agent holds anew on a rename, so the claim is young while the agent changes', () => {
      given(agentNameDecider, [claimed])
        .when({ type: 'ClaimAgentName', name: 'researcher', agentId: 'agent_1', refresh: true }, later(60_000))
        .then([
          {
            type: 'AgentNameClaimed',
            data: { name: 'researcher', agentId: 'agent_1', claimedAt: later(60_000).toISOString() },
          },
        ]);
    });
  });
});
