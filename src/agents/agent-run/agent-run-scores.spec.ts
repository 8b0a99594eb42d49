import { given } from '../../../test/support/decider-specification';
import { OF_RUN, at, now, queued, started, usage } from '../../../test/support/agent-run-fixtures';
import { AgentRunEvent } from './agent-run.events';
import { agentRunDecider } from './agent-run';

/** Live scores: recorded on a succeeded run after it ended, each scorer's once. */
describe('agent run decider: live scores', () => {
  const succeeded: AgentRunEvent = {
    type: 'AgentRunSucceeded',
    data: { runId: 'agentrun_1', ...OF_RUN, output: 'Done', usage, attempts: 1, endedAt: at },
  };
  const polite = { scorer: 'polite', scorerId: 'scorer_1', score: 1 };
  const kind = { scorer: 'kind', scorerId: 'scorer_2', score: 0.4, reason: 'curt', judgeRunId: 'agentrun_j' };

  it('records the scores of a succeeded run, and shows them on it', () => {
    const scored: AgentRunEvent = {
      type: 'AgentRunScored',
      data: {
        runId: 'agentrun_1',
        agentId: 'agent_1',
        scores: [
          { ...polite, at },
          { ...kind, at },
        ],
      },
    };
    given(agentRunDecider, [queued, started, succeeded])
      .when({ type: 'ScoreAgentRun', scores: [polite, kind] }, now)
      .then([scored]);
    given(agentRunDecider, [queued, started, succeeded, scored]).thenState(
      expect.objectContaining({
        status: 'succeeded',
        scores: [
          { ...polite, at },
          { ...kind, at },
        ],
      }),
    );
  });

  it("leaves out a scorer's score of a run it has scored already: a log read again scores nothing twice", () => {
    const scored: AgentRunEvent = {
      type: 'AgentRunScored',
      data: { runId: 'agentrun_1', agentId: 'agent_1', scores: [{ ...polite, at }] },
    };
    given(agentRunDecider, [queued, started, succeeded, scored])
      .when({ type: 'ScoreAgentRun', scores: [{ ...polite, score: 0 }] }, now)
      .then([]);
    given(agentRunDecider, [queued, started, succeeded, scored])
      .when({ type: 'ScoreAgentRun', scores: [polite, kind] }, now)
      .then([{ type: 'AgentRunScored', data: { runId: 'agentrun_1', agentId: 'agent_1', scores: [{ ...kind, at }] } }]);
  });

  it('refuses scores of a run that has not succeeded', () => {
    given(agentRunDecider, [queued, started])
      .when({ type: 'ScoreAgentRun', scores: [polite] }, now)
      .thenRefuses('conflict');
  });
});
