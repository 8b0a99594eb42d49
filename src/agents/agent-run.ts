import { Decider, DomainError, DomainEvent } from '../domain/decider';

export type AgentRunStatus = 'queued';

export interface AgentRun {
  id: string;
  agentId: string;
  task: string;
  context: Record<string, unknown>;
  status: AgentRunStatus;
  createdAt: string;
}

export type AgentRunState = AgentRun | null;

export type QueueAgentRun = { type: 'QueueAgentRun' } & Omit<AgentRun, 'status' | 'createdAt'>;
export type AgentRunCommand = QueueAgentRun;

export type AgentRunQueued = DomainEvent<'AgentRunQueued', Omit<AgentRun, 'status'>>;
export type AgentRunEvent = AgentRunQueued;

export const agentRunStream = (runId: string) => `agentrun-${runId}`;

export const agentRunDecider: Decider<AgentRunState, AgentRunCommand, AgentRunEvent> = {
  initialState: null,

  decide(state, command, now) {
    switch (command.type) {
      case 'QueueAgentRun': {
        if (state) throw new DomainError('conflict', `Agent run ${command.id} already exists`);
        const { type: _type, ...run } = command;
        return [{ type: 'AgentRunQueued', data: { ...run, createdAt: now.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AgentRunQueued': {
        const { id, agentId, task, context, createdAt } = event.data;
        return { id, agentId, task, context, status: 'queued', createdAt };
      }
      default:
        return state;
    }
  },
};
