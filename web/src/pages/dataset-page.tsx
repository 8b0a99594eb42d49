import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Dataset, DatasetItem } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatJson, formatTime } from '../format';
import { href } from '../router';
import { DatasetItemForm } from './dataset-item-form';

/** A dataset: its facts, its items (now, or at an earlier version), forms to add items, and archiving. */
export function DatasetPage({ datasetId }: { datasetId: string }) {
  const path = { params: { path: { datasetId } } };
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [changes, setChanges] = useState(0);

  useEffect(() => {
    api
      .GET('/v1/datasets/{datasetId}', path)
      .then((answer) => setDataset(unwrap(answer)))
      .catch((caught: unknown) => setError(asProblem(caught)));
  }, [datasetId, changes]);

  const items = usePagedList<DatasetItem>(
    async (cursor) => {
      const query = { limit: 50, cursor, ...(version !== undefined && { version }) };
      const page = unwrap(await api.GET('/v1/datasets/{datasetId}/items', { params: { path: { datasetId }, query } }));
      return { items: page.items, nextCursor: page.nextCursor };
    },
    `${datasetId} ${version ?? 'now'} ${changes}`,
  );

  async function act(work: () => Promise<unknown>) {
    try {
      await work();
      setError(null);
      setChanges((n) => n + 1);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }
  const archive = () => act(async () => unwrap(await api.POST('/v1/datasets/{datasetId}/archive', path)));
  const remove = (itemId: string) =>
    act(async () => {
      const answer = await api.DELETE('/v1/datasets/{datasetId}/items/{itemId}', {
        params: { path: { datasetId, itemId } },
      });
      if (answer.error) unwrap(answer);
    });

  const active = dataset?.status === 'active';
  return (
    <main>
      <p>
        <a href={href('datasets')}>← Datasets</a>
      </p>
      <div class="page-head">
        <h1>{dataset?.name ?? 'Dataset'}</h1>
        {dataset && <StatusBadge status={dataset.status} />}
      </div>
      <ProblemView error={error} />
      {dataset && (
        <>
          {dataset.description && <p>{dataset.description}</p>}
          <dl class="facts">
            <dt>Target</dt>
            <dd>{dataset.target}</dd>
            <dt>Version</dt>
            <dd data-testid="dataset-version">{dataset.version}</dd>
            <dt>Items</dt>
            <dd>{dataset.itemCount}</dd>
            <dt>Created</dt>
            <dd>{formatTime(dataset.createdAt)}</dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `dataset-${dataset.id}`)}>Event history</a>
            </dd>
          </dl>
          {active && (
            <button type="button" class="secondary" onClick={archive}>
              Archive dataset
            </button>
          )}
        </>
      )}
      <h2>Items</h2>
      {dataset && (
        <label class="inline">
          Version{' '}
          <select
            value={version === undefined ? '' : String(version)}
            onChange={(e) => setVersion(e.currentTarget.value ? Number(e.currentTarget.value) : undefined)}
          >
            <option value="">now ({dataset.version})</option>
            {Array.from({ length: dataset.version - 1 }, (_, i) => dataset.version - 1 - i).map((v) => (
              <option key={v} value={String(v)}>
                {v}
              </option>
            ))}
          </select>
        </label>
      )}
      <ProblemView error={items.error} />
      <div class="table-wrap">
        <table class="cards" data-testid="dataset-items">
          <caption class="visually-hidden">Items</caption>
          <thead>
            <tr>
              <th scope="col">Input</th>
              <th scope="col">Expected</th>
              <th scope="col">Metadata</th>
              <th scope="col">From run</th>
              <th scope="col">Added in</th>
              {active && version === undefined && <th scope="col">Remove</th>}
            </tr>
          </thead>
          <tbody>
            {items.items.map((item) => (
              <tr key={item.id}>
                <td data-label="Input">
                  <pre class="mono">{formatJson(item.input)}</pre>
                </td>
                <td data-label="Expected">
                  <pre class="mono">{item.expected === null ? '—' : formatJson(item.expected)}</pre>
                </td>
                <td data-label="Metadata" class="mono">
                  {Object.keys(item.metadata).length ? formatJson(item.metadata) : '—'}
                </td>
                <td data-label="From run" class="mono">
                  {item.sourceRunId?.startsWith('agentrun_') ? (
                    <a href={href('agent-runs', item.sourceRunId)}>{item.sourceRunId}</a>
                  ) : (
                    (item.sourceRunId ?? '—')
                  )}
                </td>
                <td data-label="Added in">version {item.addedInVersion}</td>
                {active && version === undefined && (
                  <td data-label="Remove">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Remove item ${item.id}`}
                      onClick={() => remove(item.id)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!items.loading && items.items.length === 0 && <p>No items{version === undefined ? ' yet' : ''}.</p>}
      <LoadMore hasMore={items.hasMore} loading={items.loading} onClick={items.loadMore} />
      {dataset && active && <DatasetItemForm dataset={dataset} onAdded={() => setChanges((n) => n + 1)} />}
    </main>
  );
}
