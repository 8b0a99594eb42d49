import { Decider, DomainError, DomainEvent } from '../domain/decider';

export type WorkflowStatus = 'active';

export type WorkflowTrigger = { type: 'manual' } | { type: 'schedule'; cron: string; timezone: string };
/** What started a run. */
export type RunTrigger = { type: 'manual' } | { type: 'schedule'; scheduledFor: string };

export interface WorkflowStep {
  agent: string;
  action: string;
}

export interface Workflow {
  id: string;
  name: string;
  status: WorkflowStatus;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  lastRun: string | null;
  createdAt: string;
}

export type WorkflowState = Workflow | null;

export type CreateWorkflow = { type: 'CreateWorkflow' } & Pick<Workflow, 'id' | 'name' | 'trigger' | 'steps'>;
export type TriggerWorkflow = {
  type: 'TriggerWorkflow';
  workflowId: string;
  runId: string;
  input: Record<string, unknown>;
  trigger: RunTrigger;
};
export type WorkflowCommand = CreateWorkflow | TriggerWorkflow;

export type WorkflowCreated = DomainEvent<'WorkflowCreated', Omit<Workflow, 'status' | 'lastRun'>>;
export type WorkflowTriggered = DomainEvent<
  'WorkflowTriggered',
  { workflowId: string; runId: string; input: Record<string, unknown>; trigger: RunTrigger; triggeredAt: string }
>;
export type WorkflowEvent = WorkflowCreated | WorkflowTriggered;

export const workflowStream = (workflowId: string) => `workflow-${workflowId}`;

export const workflowDecider: Decider<WorkflowState, WorkflowCommand, WorkflowEvent> = {
  initialState: null,

  decide(state, command, now) {
    switch (command.type) {
      case 'CreateWorkflow': {
        if (state) throw new DomainError('conflict', `Workflow ${command.id} already exists`);
        const { type: _type, ...workflow } = command;
        return [{ type: 'WorkflowCreated', data: { ...workflow, createdAt: now.toISOString() } }];
      }
      case 'TriggerWorkflow': {
        if (!state) throw new DomainError('not_found', `Workflow ${command.workflowId} does not exist`);
        const { workflowId, runId, input, trigger } = command;
        return [
          { type: 'WorkflowTriggered', data: { workflowId, runId, input, trigger, triggeredAt: now.toISOString() } },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WorkflowCreated': {
        const { id, name, trigger, steps, createdAt } = event.data;
        return { id, name, status: 'active', trigger, steps, lastRun: null, createdAt };
      }
      case 'WorkflowTriggered':
        return state && { ...state, lastRun: event.data.triggeredAt };
      default:
        return state;
    }
  },
};
