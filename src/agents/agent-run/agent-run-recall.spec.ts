import { agentRunDecider } from './agent-run';
import { AgentRunEvent } from './agent-run.events';
import { now, queued, started, usage } from '../../../test/support/agent-run-fixtures';

const recall = { type: 'RecordRecall' as const, executorId: 'x1', namespace: 'users/ada', items: [] };
const end = { type: 'EndAgentRun' as const, executorId: 'x1', outcome: { output: 'done' }, usage, attempts: 1 };
const stateOf = (events: AgentRunEvent[]) => events.reduce(agentRunDecider.evolve, null);

describe('agent run decider: what a run recalled', () => {
  it('is recorded in the commit of the command it comes with, before that command’s events', () => {
    const events = agentRunDecider.decide(stateOf([queued, started]), { ...recall, then: end }, now);
    expect(events.map((event) => event.type)).toEqual(['AgentRunRecalled', 'AgentRunSucceeded']);
    expect(stateOf([queued, started, ...events])).toMatchObject({ recalled: [], status: 'succeeded' });
  });

  it('is recorded once: a repeat, alone or with a command, records only the command', () => {
    const recalled = agentRunDecider.decide(stateOf([queued, started]), recall, now);
    expect(recalled.map((event) => event.type)).toEqual(['AgentRunRecalled']);
    const again = stateOf([queued, started, ...recalled]);
    expect(agentRunDecider.decide(again, recall, now)).toEqual([]);
    const events = agentRunDecider.decide(again, { ...recall, then: end }, now);
    expect(events.map((event) => event.type)).toEqual(['AgentRunSucceeded']);
  });

  it('is refused, with its command, from another executor', () => {
    expect(() =>
      agentRunDecider.decide(stateOf([queued, started]), { ...recall, executorId: 'x2', then: end }, now),
    ).toThrow();
  });
});
