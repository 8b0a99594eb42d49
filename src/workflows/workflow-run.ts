import { Decider, DomainError, DomainEvent } from '../domain/decider';
import { RunTrigger } from './workflow';

export type WorkflowRunStatus = 'queued';

export interface WorkflowRun {
  id: string;
  workflowId: string;
  status: WorkflowRunStatus;
  input: Record<string, unknown>;
  trigger: RunTrigger;
  createdAt: string;
}

export type WorkflowRunState = WorkflowRun | null;

export type QueueWorkflowRun = { type: 'QueueWorkflowRun' } & Omit<WorkflowRun, 'status'>;
export type WorkflowRunCommand = QueueWorkflowRun;

export type WorkflowRunQueued = DomainEvent<'WorkflowRunQueued', Omit<WorkflowRun, 'status'>>;
export type WorkflowRunEvent = WorkflowRunQueued;

export const workflowRunStream = (runId: string) => `workflowrun-${runId}`;

export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: null,

  decide(state, command) {
    switch (command.type) {
      case 'QueueWorkflowRun': {
        // The run is created from the workflow's WorkflowTriggered event; a repeat of the same run is a no-op.
        if (state) {
          if (state.workflowId === command.workflowId) return [];
          throw new DomainError('conflict', `Workflow run ${command.id} already exists`);
        }
        const { type: _type, ...run } = command;
        return [{ type: 'WorkflowRunQueued', data: run }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WorkflowRunQueued': {
        const { id, workflowId, input, trigger, createdAt } = event.data;
        return { id, workflowId, status: 'queued', input, trigger, createdAt };
      }
      default:
        return state;
    }
  },
};
