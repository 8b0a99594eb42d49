import { Decider, DomainError, DomainEvent } from '../domain/decider';

export type AgentStatus = 'active';

export interface Agent {
  id: string;
  name: string;
  status: AgentStatus;
  model: string;
  instructions: string;
  tools: string[];
  /** Upper bound on the model's steps (calls) in one run. */
  maxSteps: number;
  createdAt: string;
}

export const DEFAULT_MAX_STEPS = 10;

export type AgentState = Agent | null;

export type CreateAgent = { type: 'CreateAgent' } & Omit<Agent, 'status' | 'createdAt'>;
export type AgentCommand = CreateAgent;

/** Agents created before runs were executed have no `maxSteps`: they get the default. */
export type AgentCreated = DomainEvent<'AgentCreated', Omit<Agent, 'status' | 'maxSteps'> & { maxSteps?: number }>;
export type AgentEvent = AgentCreated;

export const agentStream = (agentId: string) => `agent-${agentId}`;

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  initialState: null,

  decide(state, command, now) {
    switch (command.type) {
      case 'CreateAgent': {
        if (state) throw new DomainError('conflict', `Agent ${command.id} already exists`);
        const { type: _type, ...agent } = command;
        return [{ type: 'AgentCreated', data: { ...agent, createdAt: now.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AgentCreated': {
        const { id, name, model, instructions, tools, maxSteps, createdAt } = event.data;
        return {
          id,
          name,
          status: 'active',
          model,
          instructions,
          tools,
          maxSteps: maxSteps ?? DEFAULT_MAX_STEPS,
          createdAt,
        };
      }
      default:
        return state;
    }
  },
};
