import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ProblemView } from './problem-view';

type Group = components['schemas']['ScoreGroupSchema'];

const WIDTH = 560;
const HEIGHT = 160;
const PAD = 28;
const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];

/**
 * An agent's live scores over time: each scorer's daily mean as a line (0 at the foot, 1 at the top), with the same
 * figures in a table beneath for reading them exactly. Nothing shows until a run has been scored.
 */
export function ScoresChart({ agentId }: { agentId: string }) {
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    api
      .GET('/v1/scores', { params: { query: { agent: agentId, groupBy: 'day' } } })
      .then((answer) => setGroups(unwrap(answer).scores))
      .catch((caught: unknown) => setError(asProblem(caught)));
  }, [agentId]);
  if (error) return <ProblemView error={error} />;
  if (!groups?.length) return null;

  const days = [...new Set(groups.map((group) => group.day ?? ''))].sort();
  const scorers = [...new Set(groups.map((group) => group.scorer))];
  const x = (day: string) => PAD + (days.length < 2 ? 0 : (days.indexOf(day) / (days.length - 1)) * (WIDTH - 2 * PAD));
  const y = (mean: number) => HEIGHT - PAD - mean * (HEIGHT - 2 * PAD);
  return (
    <section aria-labelledby="agent-scores">
      <h2 id="agent-scores">Live scores</h2>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        class="scores-chart"
        role="img"
        aria-label={`Daily mean score of ${scorers.join(', ')} from ${days[0]} to ${days[days.length - 1]}`}
      >
        {[0, 0.5, 1].map((mean) => (
          <g key={mean}>
            <line x1={PAD} x2={WIDTH - PAD} y1={y(mean)} y2={y(mean)} stroke="#d1d5db" />
            <text x={4} y={y(mean) + 4} font-size="10">
              {mean}
            </text>
          </g>
        ))}
        {scorers.map((scorer, i) => {
          const points = groups.filter((group) => group.scorer === scorer);
          const colour = COLOURS[i % COLOURS.length];
          return (
            <g key={scorer} data-scorer={scorer}>
              <polyline
                fill="none"
                stroke={colour}
                stroke-width="2"
                points={points.map((p) => `${x(p.day ?? '')},${y(p.mean)}`).join(' ')}
              />
              {points.map((p) => (
                <circle key={p.day} cx={x(p.day ?? '')} cy={y(p.mean)} r="3" fill={colour} />
              ))}
            </g>
          );
        })}
      </svg>
      <div class="table-wrap">
        <table class="cards" data-testid="agent-scores">
          <caption class="visually-hidden">Each scorer's daily mean</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Scorer</th>
              <th scope="col">Mean</th>
              <th scope="col">Scores</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={`${group.scorer} ${group.day}`}>
                <td>{group.day}</td>
                <td>{group.scorer}</td>
                <td>{group.mean}</td>
                <td>{group.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
