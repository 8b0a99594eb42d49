import type { AgentRun } from '../api/schema';
import { href } from '../router';

/** A run's live scores: each scorer's score and reason, and a judge's own run. */
export function RunScores({ scores }: { scores: AgentRun['scores'] }) {
  return (
    <section aria-labelledby="run-scores">
      <h2 id="run-scores">Scores</h2>
      <ul data-testid="run-scores">
        {scores.map((score) => (
          <li key={score.scorer}>
            <a href={href('scorers', score.scorerId)}>{score.scorer}</a>: <strong>{score.score}</strong>
            {score.reason && ` (${score.reason})`}
            {score.judgeRunId && ' (judged by a run of its own)'}
          </li>
        ))}
      </ul>
    </section>
  );
}
