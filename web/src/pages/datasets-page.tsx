import { useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Dataset } from '../api/schema';
import { Field } from '../components/field';
import { TextAreaField } from '../components/text-area-field';
import { TextInputField } from '../components/text-input-field';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href, navigate } from '../router';

/** Datasets: the list, and a form to create one. */
export function DatasetsPage() {
  const list = usePagedList<Dataset>(async (cursor) => {
    const page = unwrap(await api.GET('/v1/datasets', { params: { query: { limit: 50, cursor } } }));
    return { items: page.datasets, nextCursor: page.nextCursor };
  }, 'datasets');

  return (
    <main>
      <div class="page-head">
        <h1>Datasets</h1>
      </div>
      <p class="muted">
        Inputs, each with the answer expected, to run an agent or a workflow on: given here, or added from a run's page.
      </p>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Datasets</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Target</th>
              <th scope="col">Items</th>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((dataset) => (
              <tr key={dataset.id}>
                <td data-label="Name">
                  <a href={href('datasets', dataset.id)}>{dataset.name}</a>
                </td>
                <td data-label="Target">{dataset.target}</td>
                <td data-label="Items">{dataset.itemCount}</td>
                <td data-label="Version">{dataset.version}</td>
                <td data-label="Status">
                  <StatusBadge status={dataset.status} />
                </td>
                <td data-label="Created">{formatTime(dataset.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No datasets yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
      <CreateDataset />
    </main>
  );
}

function CreateDataset() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [target, setTarget] = useState<Dataset['target']>('agent');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const dataset = unwrap(await api.POST('/v1/datasets', { body: { name, description, target } }));
      navigate('datasets', dataset.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="new-dataset">
      <h2 id="new-dataset">New dataset</h2>
      <form class="card" onSubmit={submit} noValidate>
        <TextInputField id="dataset-name" label="Name" path="name" value={name} onInput={setName} error={error} />
        <TextAreaField
          id="dataset-description"
          label="Description"
          path="description"
          value={description}
          onInput={setDescription}
          error={error}
          hint="Optional"
          rows={2}
        />
        <Field
          id="dataset-target"
          label="Target"
          path="target"
          error={error}
          hint="What its items are run on: an agent (each input a task) or a workflow (each a trigger's input)"
        >
          {(describedBy, invalid) => (
            <select
              id="dataset-target"
              value={target}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setTarget(e.currentTarget.value as Dataset['target'])}
            >
              <option value="agent">agent</option>
              <option value="workflow">workflow</option>
            </select>
          )}
        </Field>
        <ProblemView error={error} shownPaths={['name', 'description', 'target']} />
        <button type="submit" disabled={busy}>
          Create dataset
        </button>
      </form>
    </section>
  );
}
