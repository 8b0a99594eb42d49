import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Dataset } from '../api/schema';
import { href } from '../router';
import { ProblemView } from './problem-view';

/**
 * "Add to dataset" on an ended run's page: the run's input, and its output as the answer expected, become an item
 * of an active dataset of the run's kind, which keeps the run as its source.
 */
export function AddToDataset({ runId, target }: { runId: string; target: Dataset['target'] }) {
  const [datasets, setDatasets] = useState<Dataset[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [added, setAdded] = useState<Dataset | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  useEffect(() => {
    api
      .GET('/v1/datasets', { params: { query: { status: 'active', limit: 200 } } })
      .then((answer) => {
        const mine = unwrap(answer).datasets.filter((dataset) => dataset.target === target);
        setDatasets(mine);
        setChosen(mine[0]?.id ?? '');
      })
      .catch((caught: unknown) => setError(asProblem(caught)));
  }, [runId, target]);

  async function add(event: Event) {
    event.preventDefault();
    try {
      const params = { path: { datasetId: chosen } };
      unwrap(await api.POST('/v1/datasets/{datasetId}/items', { params, body: { fromRunId: runId } }));
      setAdded(datasets?.find((dataset) => dataset.id === chosen) ?? null);
      setError(null);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  if (datasets === null) return <ProblemView error={error} />;
  return (
    <form class="inline-form" onSubmit={add} aria-label="Add to dataset">
      {datasets.length === 0 ? (
        <span class="muted">
          No {target} dataset to add this run to: <a href={href('datasets')}>create one</a>.
        </span>
      ) : (
        <>
          <label for={`add-to-dataset-${runId}`}>Dataset</label>{' '}
          <select id={`add-to-dataset-${runId}`} value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
            {datasets.map((dataset) => (
              <option key={dataset.id} value={dataset.id}>
                {dataset.name}
              </option>
            ))}
          </select>{' '}
          <button type="submit" class="secondary">
            Add to dataset
          </button>
        </>
      )}
      {added && (
        <span role="status">
          {' '}
          Added to <a href={href('datasets', added.id)}>{added.name}</a>.
        </span>
      )}
      <ProblemView error={error} />
    </form>
  );
}
