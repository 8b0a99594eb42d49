import { given } from '../../test/support/decider-specification';
import { AgentArchived, AgentCreated, AgentUpdated, agentDecider } from './agent';

const now = new Date('2026-01-01T00:00:00.000Z');
const created: AgentCreated = {
  type: 'AgentCreated',
  data: {
    id: 'agent_1',
    name: 'researcher',
    model: 'openai/gpt-4o-mini',
    instructions: 'Find',
    tools: ['web'],
    maxSteps: 4,
    createdAt: now.toISOString(),
  },
};

describe('agent decider', () => {
  it('creates an agent, stamped with the time', () => {
    given(agentDecider, [])
      .when(
        {
          type: 'CreateAgent',
          id: 'agent_1',
          name: 'researcher',
          model: 'openai/gpt-4o-mini',
          instructions: 'Find',
          tools: ['web'],
          maxSteps: 4,
        },
        now,
      )
      .then([created]);
  });

  it('refuses to create an agent twice', () => {
    given(agentDecider, [created])
      .when({
        type: 'CreateAgent',
        id: 'agent_1',
        name: 'other',
        model: 'a/b',
        instructions: '',
        tools: [],
        maxSteps: 10,
      })
      .thenRefuses('conflict');
  });

  it('evolves into an active agent', () => {
    given(agentDecider, [created]).thenState({
      id: 'agent_1',
      name: 'researcher',
      status: 'active',
      model: 'openai/gpt-4o-mini',
      instructions: 'Find',
      tools: ['web'],
      maxSteps: 4,
      outputSchema: null,
      memory: { maxMessages: 50 },
      approvalRequired: [],
      fallbackModels: [],
      guardrails: {},
      handoffs: [],
      scorers: [],
      description: '',
      version: 1,
      createdAt: now.toISOString(),
    });
  });

  it('gives agents recorded before maxSteps existed the default', () => {
    const { maxSteps: _maxSteps, ...older } = created.data;
    given(agentDecider, [{ type: 'AgentCreated', data: older }]).thenState({
      ...older,
      status: 'active',
      maxSteps: 10,
      fallbackModels: [],
      guardrails: {},
      handoffs: [],
      scorers: [],
      description: '',
      outputSchema: null,
      memory: { maxMessages: 50 },
      approvalRequired: [],
      version: 1,
    });
  });

  describe('changes and archiving', () => {
    const renamed: AgentUpdated = {
      type: 'AgentUpdated',
      data: { agentId: 'agent_1', changes: { name: 'scout', maxSteps: 8 }, version: 2, updatedAt: now.toISOString() },
    };
    const archived: AgentArchived = {
      type: 'AgentArchived',
      data: { agentId: 'agent_1', name: 'scout', version: 3, archivedAt: now.toISOString() },
    };
    const update = (changes: object, baseVersion = 1, ifMatch?: number[]) =>
      ({ type: 'UpdateAgent', agentId: 'agent_1', changes, baseVersion, ifMatch }) as const;

    it('records the changed fields with the next version', () => {
      given(agentDecider, [created])
        .when(update({ name: 'scout', maxSteps: 8 }), now)
        .then([renamed]);
    });

    it('evolves an update into the changed agent, one version on', () => {
      given(agentDecider, [created, renamed]).thenState(
        expect.objectContaining({ name: 'scout', maxSteps: 8, instructions: 'Find', version: 2 }),
      );
    });

    it('records nothing for an update that changes nothing', () => {
      given(agentDecider, [created]).when(update({})).then([]);
    });

    it('applies an update whose If-Match names the current version, and refuses an older one', () => {
      given(agentDecider, [created, renamed])
        .when(update({ maxSteps: 9 }, 2, [2]), now)
        .then([
          {
            type: 'AgentUpdated',
            data: { agentId: 'agent_1', changes: { maxSteps: 9 }, version: 3, updatedAt: now.toISOString() },
          },
        ]);
      given(agentDecider, [created, renamed])
        .when(update({ maxSteps: 9 }, 2, [1]))
        .thenRefuses('precondition_failed', /version 2/);
    });

    it('refuses a change merged onto a version that is not the latest, so the handler merges again', () => {
      given(agentDecider, [created, renamed])
        .when(update({ maxSteps: 9 }, 1))
        .thenRefuses('conflict', /meanwhile/);
    });

    it('refuses to change an agent that does not exist', () => {
      given(agentDecider, [])
        .when(update({ maxSteps: 9 }))
        .thenRefuses('not_found');
    });

    it('archives with the next version, and archiving again changes nothing', () => {
      given(agentDecider, [created, renamed]).when({ type: 'ArchiveAgent', agentId: 'agent_1' }, now).then([archived]);
      given(agentDecider, [created, renamed, archived])
        .when({ type: 'ArchiveAgent', agentId: 'agent_1', ifMatch: [1] })
        .then([]);
      given(agentDecider, [created, renamed, archived]).thenState(
        expect.objectContaining({ status: 'archived', name: 'scout', version: 3 }),
      );
    });

    it('refuses to archive when If-Match names an older version', () => {
      given(agentDecider, [created, renamed])
        .when({ type: 'ArchiveAgent', agentId: 'agent_1', ifMatch: [1] })
        .thenRefuses('precondition_failed');
    });

    it('refuses to change an archived agent', () => {
      given(agentDecider, [created, renamed, archived])
        .when(update({ maxSteps: 9 }, 3))
        .thenRefuses('conflict');
    });
  });
});
