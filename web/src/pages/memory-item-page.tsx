import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { components } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { formatJson, formatTime } from '../format';
import { href, navigate } from '../router';
import { MemoryItem, PutForm } from './memory-page';

type Version = components['schemas']['MemoryVersionSchema'];

/** Where a version came from: its run, if a run wrote it, and its event in the item's history. */
function Source({ item }: { item: MemoryItem }) {
  const { runId } = item.source;
  return (
    <>
      {runId && (
        <>
          run <a href={href('agent-runs', runId)}>{runId}</a>,{' '}
        </>
      )}
      event <a href={href('history', `memory-${item.namespace}/${item.key}`)}>{item.source.eventId}</a>
    </>
  );
}

/** One memory item: its value, a new version, a delete, its versions, and the item as it was at a time. */
export function MemoryItemPage({ namespace, itemKey }: { namespace: string; itemKey: string }) {
  const [item, setItem] = useState<MemoryItem | null | undefined>(undefined);
  const [versions, setVersions] = useState<Version[]>([]);
  const [asOf, setAsOf] = useState('');
  const [then, setThen] = useState<MemoryItem | null | undefined>(undefined);
  const [error, setError] = useState<ProblemError | null>(null);
  const path = { params: { path: { namespace, key: itemKey } } };

  async function load() {
    const now = await api.GET('/v1/memory/{namespace}/{key}', path);
    setItem(now.response.status === 404 ? null : unwrap(now));
    const history = await api.GET('/v1/memory/{namespace}/{key}/history', {
      params: { ...path.params, query: { limit: 200 } },
    });
    setVersions(history.response.status === 404 ? [] : unwrap(history).versions);
  }
  useEffect(() => void load().catch((caught) => setError(asProblem(caught))), [namespace, itemKey]);

  async function remove() {
    if (!confirm(`Delete ${itemKey} from ${namespace}? Its versions stay in its history.`)) return;
    try {
      const deleted = await api.DELETE('/v1/memory/{namespace}/{key}', path);
      // A 204 has no body to unwrap.
      if (!deleted.response.ok) throw asProblem(deleted.error, deleted.response);
      await load();
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  async function readAsOf(event: Event) {
    event.preventDefault();
    const at = new Date(asOf);
    if (!asOf || Number.isNaN(+at)) return setThen(undefined);
    const answer = await api.GET('/v1/memory/{namespace}/{key}', {
      params: { ...path.params, query: { asOf: at.toISOString() } },
    });
    setThen(answer.response.status === 404 ? null : unwrap(answer));
  }

  return (
    <main>
      <p>
        <a href={href('memory', namespace)}>← {namespace}</a>
      </p>
      <h1>{itemKey}</h1>
      <ProblemView error={error} />
      {item === null && <p data-testid="memory-gone">Not in memory now (deleted, expired, or never put).</p>}
      {item && (
        <dl class="facts" data-testid="memory-item">
          <dt>Value</dt>
          <dd>
            <pre>{formatJson(item.value)}</pre>
          </dd>
          <dt>Version</dt>
          <dd>{item.version}</dd>
          <dt>Expires</dt>
          <dd>{item.expiresAt ? formatTime(item.expiresAt) : 'never'}</dd>
          <dt>Written by</dt>
          <dd>
            <Source item={item} />
          </dd>
        </dl>
      )}
      {item && (
        <button type="button" class="danger" onClick={() => void remove()}>
          Delete
        </button>
      )}
      <PutForm namespace={namespace} fixedKey={itemKey} onPut={() => void load()} />
      <h2>Versions</h2>
      <ol data-testid="memory-versions">
        {versions.map((version) => (
          <li key={version.version}>
            {version.version}. {formatTime(version.updatedAt)}:{' '}
            {version.removed ? <em>{version.removed}</em> : <code>{JSON.stringify(version.value)}</code>}
            {version.source.runId && (
              <>
                {' '}
                by <a href={href('agent-runs', version.source.runId)}>{version.source.runId}</a>
              </>
            )}
          </li>
        ))}
      </ol>
      <form class="row" onSubmit={readAsOf} aria-label="As it was">
        <label for="memory-as-of">As it was at</label>
        <input id="memory-as-of" type="datetime-local" value={asOf} onInput={(e) => setAsOf(e.currentTarget.value)} />
        <button type="submit">Read</button>
      </form>
      {then === null && <p data-testid="memory-then">It was not in memory then.</p>}
      {then && <pre data-testid="memory-then">{formatJson(then.value)}</pre>}
      <p>
        <button type="button" class="link" onClick={() => navigate('memory', namespace)}>
          Back to the namespace
        </button>
      </p>
    </main>
  );
}
