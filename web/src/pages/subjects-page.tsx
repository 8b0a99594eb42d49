import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { components } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { TextAreaField } from '../components/text-area-field';
import { TextInputField } from '../components/text-input-field';
import { formatTime } from '../format';
import { href, navigate } from '../router';

type Subject = components['schemas']['SubjectSchema'];

/** How many of a subject's runs are linked (the rest are counted). */
const RUNS_SHOWN = 20;

/** Subjects: look one up by id, bind memory namespaces to it, and forget it. */
export function SubjectsPage({ subjectId }: { subjectId?: string }) {
  const [typed, setTyped] = useState(subjectId ?? '');
  return (
    <main>
      <h1>Subjects</h1>
      <p class="hint">
        The people data is about: a run's context.subjectId, a thread's subject, memory namespaces bound to one.
        Forgetting a subject destroys its key: its content reads as forgotten everywhere, for good.
      </p>
      <form
        class="row"
        aria-label="Look up a subject"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) navigate('subjects', typed.trim());
        }}
      >
        <TextInputField
          id="subject-id"
          label="Subject id"
          path="subjectId"
          value={typed}
          onInput={setTyped}
          error={null}
        />
        <button type="submit">Look up</button>
      </form>
      {subjectId && <SubjectView key={subjectId} subjectId={subjectId} />}
    </main>
  );
}

/** What goes when the subject is forgotten, in words, for the confirmation. */
function whatGoes(subject: Subject): string {
  const parts = [
    `${subject.threads.length} thread(s)`,
    `the content of ${subject.runs.length} run(s)`,
    `${subject.memoryItems} memory item(s)`,
  ];
  if (subject.namespaces.length) parts.push(`everything in ${subject.namespaces.join(', ')}`);
  return parts.join(', ');
}

function SubjectView({ subjectId }: { subjectId: string }) {
  const [subject, setSubject] = useState<Subject | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [namespaces, setNamespaces] = useState('');
  const path = { params: { path: { subjectId } } };

  const shown = (next: Subject) => {
    setSubject(next);
    setNamespaces(next.namespaces.join('\n'));
    setError(null);
  };
  useEffect(() => {
    api
      .GET('/v1/subjects/{subjectId}', path)
      .then(unwrap)
      .then(shown)
      .catch((caught) => setError(asProblem(caught)));
  }, [subjectId]);

  async function bind(event: Event) {
    event.preventDefault();
    const body = {
      namespaces: namespaces
        .split(/[\n,]/)
        .map((n) => n.trim())
        .filter(Boolean),
    };
    try {
      shown(unwrap(await api.PUT('/v1/subjects/{subjectId}/namespaces', { ...path, body })));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  async function forget() {
    if (!subject) return;
    const question = `Forget ${subjectId}? This destroys its key for good: ${whatGoes(subject)} will read as forgotten.`;
    if (!confirm(question)) return;
    try {
      shown(unwrap(await api.DELETE('/v1/subjects/{subjectId}', path)));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <section aria-label={`Subject ${subjectId}`}>
      <h2>{subjectId}</h2>
      <ProblemView error={error} shownPaths={['namespaces']} />
      {subject && (
        <>
          <dl data-testid="subject">
            <dt>Threads</dt>
            <dd>
              {subject.threads.length === 0 && 'none'}
              {subject.threads.map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <a href={href('threads', id)}>{id}</a>
                </span>
              ))}
            </dd>
            <dt>Runs</dt>
            <dd data-testid="subject-runs">
              {subject.runs.length} {subject.runs.length > RUNS_SHOWN && `(the first ${RUNS_SHOWN}: `}
              {subject.runs.slice(0, RUNS_SHOWN).map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <a href={href('agent-runs', id)}>{id}</a>
                </span>
              ))}
              {subject.runs.length > RUNS_SHOWN && ')'}
            </dd>
            <dt>Memory items</dt>
            <dd>{subject.memoryItems}</dd>
            <dt>Forgotten</dt>
            <dd data-testid="subject-forgotten">{subject.forgottenAt ? formatTime(subject.forgottenAt) : 'never'}</dd>
          </dl>
          <form class="card" onSubmit={bind} noValidate aria-label="Bind namespaces">
            <TextAreaField
              id="subject-namespaces"
              label="Memory namespaces about it (one per line)"
              path="namespaces"
              value={namespaces}
              onInput={setNamespaces}
              error={error}
              hint="The values of items put in them (and below them) from now on are sealed under its key."
            />
            <button type="submit">Bind</button>
          </form>
          <button type="button" class="secondary danger" onClick={forget}>
            Forget {subjectId}
          </button>
        </>
      )}
    </section>
  );
}
