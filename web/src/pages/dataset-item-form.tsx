import { useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Dataset } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { TextAreaField } from '../components/text-area-field';
import { TextInputField } from '../components/text-input-field';
import { type FieldProblem, formProblem, parseJsonField } from '../forms/form-problem';

type Source = 'hand' | 'run';
type ExpectedKind = 'none' | 'text' | 'json';

/**
 * Adds an item to a dataset: given by hand (an agent's task and context, or a workflow trigger's input) or made from
 * a run by its id, with the answer expected (none, a text, or any JSON value) and free-form metadata.
 */
export function DatasetItemForm({ dataset, onAdded }: { dataset: Dataset; onAdded: () => void }) {
  const [source, setSource] = useState<Source>('hand');
  const [task, setTask] = useState('');
  const [context, setContext] = useState('{}');
  const [input, setInput] = useState('{}');
  const [runId, setRunId] = useState('');
  const [expectedKind, setExpectedKind] = useState<ExpectedKind>('text');
  const [expected, setExpected] = useState('');
  const [metadata, setMetadata] = useState('{}');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  /** The request's body, or the problems found before sending it. */
  function body(problems: FieldProblem[]) {
    const meta = parseJsonField(metadata, 'metadata', problems) ?? {};
    const answer =
      expectedKind === 'text'
        ? expected
        : expectedKind === 'json'
          ? parseJsonField(expected, 'expected', problems, 'any')
          : undefined;
    // From a run, "none" leaves the run's output as the answer expected.
    const expectedField = expectedKind === 'none' && source === 'hand' ? { expected: null } : {};
    const given = answer === undefined || (expectedKind === 'text' && !expected) ? expectedField : { expected: answer };
    if (source === 'run') return { fromRunId: runId.trim(), ...given, metadata: meta };
    const value =
      dataset.target === 'agent'
        ? { task, context: parseJsonField(context, 'input.context', problems) ?? {} }
        : (parseJsonField(input, 'input', problems) ?? {});
    return { input: value, ...given, metadata: meta };
  }

  async function submit(event: Event) {
    event.preventDefault();
    const problems: FieldProblem[] = [];
    const payload = body(problems);
    if (problems.length) return setError(formProblem(problems));
    setBusy(true);
    try {
      unwrap(
        await api.POST('/v1/datasets/{datasetId}/items', {
          params: { path: { datasetId: dataset.id } },
          body: payload as never,
        }),
      );
      setError(null);
      setTask('');
      setExpected('');
      onAdded();
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  const text = (id: string, label: string, path: string, value: string, set: (v: string) => void, hint?: string) => (
    <TextAreaField {...{ id, label, path, value, hint, error }} onInput={set} />
  );

  return (
    <section aria-labelledby="new-item">
      <h2 id="new-item">Add an item</h2>
      <form class="card" onSubmit={submit} noValidate>
        <fieldset>
          <legend>The item's input</legend>
          <label class="inline">
            <input type="radio" name="source" checked={source === 'hand'} onChange={() => setSource('hand')} /> Given
            here
          </label>
          <label class="inline">
            <input type="radio" name="source" checked={source === 'run'} onChange={() => setSource('run')} /> From a run
          </label>
        </fieldset>
        {source === 'run' ? (
          <TextInputField
            id="item-run"
            label="Run id"
            path="fromRunId"
            value={runId}
            onInput={setRunId}
            error={error}
            hint={`An ended ${dataset.target} run: its input, and its output as the answer expected unless one is given below`}
          />
        ) : dataset.target === 'agent' ? (
          <>
            {text('item-task', 'Task', 'input.task', task, setTask)}
            {text('item-context', 'Context (JSON)', 'input.context', context, setContext, 'A JSON object')}
          </>
        ) : (
          text('item-input', 'Input (JSON)', 'input', input, setInput, "The trigger's input: a JSON object")
        )}
        <Field id="item-expected-kind" label="Expected answer" path="" error={null}>
          {() => (
            <select
              id="item-expected-kind"
              value={expectedKind}
              onChange={(e) => setExpectedKind(e.currentTarget.value as ExpectedKind)}
            >
              <option value="text">a text</option>
              <option value="json">a JSON value</option>
              <option value="none">{source === 'run' ? "the run's output" : 'none'}</option>
            </select>
          )}
        </Field>
        {expectedKind !== 'none' &&
          text(
            'item-expected',
            expectedKind === 'json' ? 'Expected (JSON)' : 'Expected',
            'expected',
            expected,
            setExpected,
          )}
        {text('item-metadata', 'Metadata (JSON)', 'metadata', metadata, setMetadata, 'A JSON object of notes')}
        <ProblemView
          error={error}
          shownPaths={['input', 'input.task', 'input.context', 'fromRunId', 'expected', 'metadata']}
        />
        <button type="submit" disabled={busy}>
          Add item
        </button>
      </form>
    </section>
  );
}
