import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { UsageGroup, UsageReport } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { formatUsd } from '../format';
import { href } from '../router';

type Report = { byAgent: UsageReport; byDay: UsageReport };

/** A date `days` before today (UTC), as the API takes it. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * What runs cost: totals of runs, tokens and dollars over a window of days, by agent and by day
 * (`GET /v1/usage`, a projection of hourly sums).
 */
export function UsagePage() {
  const [days, setDays] = useState(30);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  useEffect(() => {
    let current = true;
    const from = days > 0 ? daysAgo(days - 1) : undefined;
    const usage = (groupBy: 'agent' | 'day') =>
      api.GET('/v1/usage', { params: { query: { ...(from && { from }), groupBy } } }).then(unwrap);
    Promise.all([usage('agent'), usage('day')])
      .then(([byAgent, byDay]) => current && setReport({ byAgent, byDay }))
      .catch((caught) => current && setError(asProblem(caught)));
    return () => {
      current = false;
    };
  }, [days]);

  const totals = report?.byAgent.totals;
  return (
    <main>
      <h1>Usage</h1>
      <p class="hint">
        Agent runs that ended in the window, their tokens and what they cost at the prices the service knows. Days are
        in UTC.
      </p>
      <label>
        Window{' '}
        <select value={days} onChange={(event) => setDays(Number((event.target as HTMLSelectElement).value))}>
          <option value={1}>Today</option>
          <option value={7}>Last 7 days</option>
          <option value={30}>Last 30 days</option>
          <option value={365}>Last 365 days</option>
          <option value={0}>All time</option>
        </select>
      </label>
      <ProblemView error={error} />
      {totals && (
        <dl class="facts" data-testid="usage-totals">
          <dt>Runs</dt>
          <dd>{totals.runs}</dd>
          <dt>Tokens</dt>
          <dd>
            {totals.inputTokens} in, {totals.outputTokens} out
          </dd>
          <dt>Cost</dt>
          <dd>
            {formatUsd(totals.costUsd)}
            {totals.unpricedRuns > 0 &&
              ` for the priced runs; unknown for ${totals.unpricedRuns} ${totals.unpricedRuns === 1 ? 'run' : 'runs'} ` +
                'of models without a price (see MODEL_PRICES_FILE)'}
          </dd>
        </dl>
      )}
      {report && (
        <>
          <UsageTable
            caption="By agent"
            keyLabel="Agent"
            groups={report.byAgent.groups}
            // Each group names its agent as it is named now.
            keyCell={({ key, agentName }) => <a href={href('agents', key)}>{agentName ?? key}</a>}
            testId="usage-by-agent"
          />
          <UsageTable
            caption="By day"
            keyLabel="Day"
            groups={report.byDay.groups}
            keyCell={({ key }) => key}
            testId="usage-by-day"
          />
        </>
      )}
    </main>
  );
}

function UsageTable(props: {
  caption: string;
  keyLabel: string;
  groups: UsageGroup[];
  keyCell: (group: UsageGroup) => preact.ComponentChild;
  testId: string;
}) {
  return (
    <table data-testid={props.testId} class="cards">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.keyLabel}</th>
          <th scope="col">Runs</th>
          <th scope="col">Input tokens</th>
          <th scope="col">Output tokens</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {props.groups.length === 0 && (
          <tr>
            <td colSpan={5}>No runs ended in this window.</td>
          </tr>
        )}
        {props.groups.map((group) => (
          <tr key={group.key}>
            <th scope="row">{props.keyCell(group)}</th>
            <td data-label="Runs">{group.runs}</td>
            <td data-label="Input tokens">{group.inputTokens}</td>
            <td data-label="Output tokens">{group.outputTokens}</td>
            <td data-label="Cost">{formatUsd(group.costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
