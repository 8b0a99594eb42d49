import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Score, Scorer } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { TextAreaField } from '../components/text-area-field';
import { StatusBadge } from '../components/status-badge';
import { type FieldProblem, formProblem, parseJsonField } from '../forms/form-problem';
import { formatJson, formatTime } from '../format';
import { href } from '../router';

/** A scorer: its definition, archiving, and a form to try it on an answer. */
export function ScorerPage({ scorerId }: { scorerId: string }) {
  const path = { params: { path: { scorerId } } };
  const [scorer, setScorer] = useState<Scorer | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  useEffect(() => {
    api
      .GET('/v1/scorers/{scorerId}', path)
      .then((answer) => setScorer(unwrap(answer)))
      .catch((caught: unknown) => setError(asProblem(caught)));
  }, [scorerId]);

  async function archive() {
    try {
      setScorer(unwrap(await api.POST('/v1/scorers/{scorerId}/archive', path)));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <main>
      <p>
        <a href={href('scorers')}>← Scorers</a>
      </p>
      <div class="page-head">
        <h1>{scorer?.name ?? 'Scorer'}</h1>
        {scorer && <StatusBadge status={scorer.status} />}
      </div>
      <ProblemView error={error} />
      {scorer && (
        <>
          {scorer.description && <p>{scorer.description}</p>}
          <dl class="facts">
            <dt>Type</dt>
            <dd>{scorer.type}</dd>
            {scorer.caseSensitive !== undefined && (
              <>
                <dt>Case counts</dt>
                <dd>{scorer.caseSensitive ? 'yes' : 'no'}</dd>
              </>
            )}
            {scorer.schema && (
              <>
                <dt>Schema</dt>
                <dd>
                  <pre class="mono">{formatJson(scorer.schema)}</pre>
                </dd>
              </>
            )}
            {scorer.rule !== undefined && (
              <>
                <dt>Rule</dt>
                <dd>
                  <pre class="mono">{formatJson(scorer.rule)}</pre>
                </dd>
              </>
            )}
            {scorer.agent && (
              <>
                <dt>Judge agent</dt>
                <dd>{scorer.agent}</dd>
                <dt>Rubric</dt>
                <dd class="pre">{scorer.rubric}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatTime(scorer.createdAt)}</dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `scorer-${scorer.id}`)}>Event history</a>
            </dd>
          </dl>
          {scorer.status === 'active' && (
            <button type="button" class="secondary" onClick={archive}>
              Archive scorer
            </button>
          )}
          <TryScorer scorer={scorer} />
        </>
      )}
    </main>
  );
}

/** Scores an answer now: nothing is recorded, but a judge's own run. */
function TryScorer({ scorer }: { scorer: Scorer }) {
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const [expected, setExpected] = useState('');
  const [run, setRun] = useState('');
  const [score, setScore] = useState<Score | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const problems: FieldProblem[] = [];
    const body = {
      output,
      ...(input.trim() && { input: parseJsonField(input, 'input', problems, 'any') }),
      ...(expected && { expected }),
      ...(run.trim() && { run: parseJsonField(run, 'run', problems) as Record<string, unknown> }),
    };
    if (problems.length) return setError(formProblem(problems));
    setBusy(true);
    try {
      const params = { path: { scorerId: scorer.id } };
      setScore(unwrap(await api.POST('/v1/scorers/{scorerId}/score', { params, body: body as never })));
      setError(null);
    } catch (caught) {
      setError(asProblem(caught));
      setScore(null);
    } finally {
      setBusy(false);
    }
  }

  const area = (id: string, label: string, path: string, value: string, set: (v: string) => void, hint?: string) => (
    <TextAreaField {...{ id, label, path, value, hint, error }} onInput={set} />
  );

  return (
    <section aria-labelledby="try-scorer">
      <h2 id="try-scorer">Try it</h2>
      <form class="card" onSubmit={submit} noValidate>
        {area('try-output', 'Answer', 'output', output, setOutput)}
        {area('try-expected', 'Answer expected', 'expected', expected, setExpected, 'Optional, as text')}
        {area('try-input', 'Input (JSON)', 'input', input, setInput, 'Optional: what was asked, e.g. {"task": "…"}')}
        {area('try-run', 'Run (JSON)', 'run', run, setRun, 'Optional, for rules: {"toolCalls": [], "durationMs": 800}')}
        <ProblemView error={error} shownPaths={['output', 'expected', 'input', 'run']} />
        <button type="submit" disabled={busy}>
          Score it
        </button>
      </form>
      {score && (
        <p role="status" data-testid="score">
          Score <strong>{score.score}</strong>
          {score.reason && <> — {score.reason}</>}
        </p>
      )}
    </section>
  );
}
