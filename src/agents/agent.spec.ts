import { given } from '../../test/support/decider-specification';
import { AgentCreated, agentDecider } from './agent';

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
      createdAt: now.toISOString(),
    });
  });

  it('gives agents recorded before maxSteps existed the default', () => {
    const { maxSteps: _maxSteps, ...older } = created.data;
    given(agentDecider, [{ type: 'AgentCreated', data: older }]).thenState({
      ...older,
      status: 'active',
      maxSteps: 10,
    });
  });
});
