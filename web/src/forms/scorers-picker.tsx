import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import { ProblemView } from '../components/problem-view';
import { listMessages } from './form-problem';
import { LiveScorerDraft, MAX_LIVE_SCORERS } from './scorers-draft';

/**
 * The scorers that score the agent's succeeded runs after they end, each with the share of runs it scores (0 to
 * 1). The active scorers are offered; a chosen one that is no longer active stays chosen, listed apart.
 */
export function ScorersPicker({
  scorers,
  onChange,
  error,
  idPrefix,
}: {
  scorers: LiveScorerDraft[];
  onChange: (scorers: LiveScorerDraft[]) => void;
  error: ProblemError | null;
  idPrefix: string;
}) {
  const [names, setNames] = useState<string[] | null>(null);
  const [loadError, setLoadError] = useState<ProblemError | null>(null);
  useEffect(() => {
    api
      .GET('/v1/scorers', { params: { query: { status: 'active', limit: 200 } } })
      .then((answer) => setNames(unwrap(answer).scorers.map((scorer) => scorer.name)))
      .catch((caught: unknown) => setLoadError(asProblem(caught)));
  }, []);
  const errorId = `${idPrefix}-scorers-error`;
  const offered = [...(names ?? []), ...scorers.map((s) => s.scorer).filter((name) => !names?.includes(name))];
  const chosen = (name: string) => scorers.find((entry) => entry.scorer === name);
  const pick = (name: string, on: boolean) =>
    onChange(
      on
        ? [...scorers.filter((entry) => entry.scorer !== name), { scorer: name, sampling: '1' }]
        : scorers.filter((entry) => entry.scorer !== name),
    );
  const setSampling = (name: string, sampling: string) =>
    onChange(scorers.map((entry) => (entry.scorer === name ? { ...entry, sampling } : entry)));
  const messages = listMessages(
    error,
    'scorers',
    scorers.map((entry) => entry.scorer),
  );

  return (
    <fieldset aria-describedby={messages.length ? errorId : undefined}>
      <legend>Live scorers</legend>
      <p class="hint">
        Scorers that score this agent's succeeded runs after they end (up to {MAX_LIVE_SCORERS}), each on a share of
        them: 1 scores every run, 0.1 one in ten. The agent's page charts their daily means.
      </p>
      <ProblemView error={loadError} />
      <ul class="tool-list">
        {offered.map((name) => {
          const entry = chosen(name);
          return (
            <li key={name}>
              <label class="checkbox">
                <input type="checkbox" checked={!!entry} onChange={(e) => pick(name, e.currentTarget.checked)} />{' '}
                {names?.includes(name) ? <strong>{name}</strong> : <code>{name} (not an active scorer)</code>}
              </label>
              {entry && (
                <label class="handoff-input">
                  share of runs{' '}
                  <input
                    size={5}
                    inputMode="decimal"
                    value={entry.sampling}
                    aria-label={`Share of runs ${name} scores`}
                    onInput={(e) => setSampling(name, e.currentTarget.value)}
                  />
                </label>
              )}
            </li>
          );
        })}
      </ul>
      {names !== null && offered.length === 0 && (
        <p class="muted">No active scorers: define one on the Scorers page.</p>
      )}
      {messages.length > 0 && (
        <div class="field-error" id={errorId}>
          {messages.join('; ')}
        </div>
      )}
    </fieldset>
  );
}
