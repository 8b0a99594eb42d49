import { given } from '../../../test/support/decider-specification';
import { WorkflowCreated, WorkflowUpdated } from './workflow.events';
import { workflowDecider } from './workflow';

const now = new Date('2026-01-01T00:00:00.000Z');
const inputSchema = { type: 'object', properties: { topic: { type: 'string' } } };
const steps = [{ agent: 'researcher', action: 'about {{input.topic}}' }];
const created: WorkflowCreated = {
  type: 'WorkflowCreated',
  data: { id: 'wf_1', name: 'typed', trigger: { type: 'manual' }, steps, inputSchema, createdAt: now.toISOString() },
};
const updated = (changes: WorkflowUpdated['data']['changes'], version: number): WorkflowUpdated => ({
  type: 'WorkflowUpdated',
  data: { workflowId: 'wf_1', changes, version, updatedAt: now.toISOString() },
});

describe('workflow decider: the input schema', () => {
  it('records the schema given at create, and keeps it', () => {
    given(workflowDecider, [])
      .when({ type: 'CreateWorkflow', id: 'wf_1', name: 'typed', trigger: { type: 'manual' }, steps, inputSchema }, now)
      .then([created]);
    expect(workflowDecider.evolve(null, created)).toMatchObject({ inputSchema, version: 1 });
  });

  it('has none when created without one, or once an update sets it to null', () => {
    const { inputSchema: _none, ...untyped } = created.data;
    const state = (events: Array<WorkflowCreated | WorkflowUpdated>) =>
      events.reduce(workflowDecider.evolve, workflowDecider.initialState);
    expect(state([{ type: 'WorkflowCreated', data: untyped }])).not.toHaveProperty('inputSchema');
    const other = { type: 'object', properties: {} };
    expect(state([created, updated({ inputSchema: other }, 2)])).toMatchObject({ inputSchema: other, version: 2 });
    expect(state([created, updated({ inputSchema: null }, 2)])).not.toHaveProperty('inputSchema');
    expect(state([created, updated({ name: 'renamed' }, 2)])).toMatchObject({ inputSchema, name: 'renamed' });
  });
});
