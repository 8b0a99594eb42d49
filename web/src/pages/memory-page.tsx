import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { components } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { formatJson, formatTime, parseJsonObject } from '../format';
import { href, navigate } from '../router';

export type MemoryItem = components['schemas']['MemoryItemSchema'];
type Hit = components['schemas']['MemorySearchHitSchema'];
type SearchMode = NonNullable<components['schemas']['MemorySearchDto']['mode']>;

/** One line of a value, for a list. */
const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/** A text field wired to its errors. */
function TextField(props: {
  id: string;
  label: string;
  path: string;
  value: string;
  set: (value: string) => void;
  error: ProblemError | null;
  localError?: string | null;
  hint?: string;
  rows?: number;
}) {
  const { id, label, path, value, set, error, localError, hint, rows } = props;
  return (
    <Field id={id} label={label} path={path} error={error} localError={localError} hint={hint}>
      {(describedBy, invalid) =>
        rows ? (
          <textarea
            id={id}
            class="mono"
            rows={rows}
            value={value}
            onInput={(e) => set(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        ) : (
          <input
            id={id}
            value={value}
            onInput={(e) => set(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )
      }
    </Field>
  );
}

/** Memory: a namespace's items, a form to put one, and a search over the namespace and those below it. */
export function MemoryPage({ namespace }: { namespace?: string }) {
  const [typed, setTyped] = useState(namespace ?? '');
  return (
    <main>
      <h1>Memory</h1>
      <p class="hint">
        JSON items by namespace and key that outlast a thread, every version kept. A namespace is segments joined by
        “/”, such as users/ada.
      </p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) navigate('memory', typed.trim());
        }}
      >
        <TextField id="memory-namespace" label="Namespace" path="namespace" value={typed} set={setTyped} error={null} />
        <button type="submit">Open</button>
      </form>
      {namespace ? <Namespace key={namespace} namespace={namespace} /> : <Namespaces />}
    </main>
  );
}

/** The namespaces that hold items, each with how many. */
function Namespaces() {
  const [namespaces, setNamespaces] = useState<Array<{ namespace: string; items: number }> | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    api
      .GET('/v1/memory', { params: { query: { limit: 200 } } })
      .then(unwrap)
      .then((page) => setNamespaces(page.namespaces))
      .catch((caught) => setError(asProblem(caught)));
  }, []);
  return (
    <>
      <h2>Namespaces</h2>
      <ProblemView error={error} />
      {namespaces?.length === 0 && <p class="muted">Nothing is remembered yet.</p>}
      <ul data-testid="memory-namespaces">
        {namespaces?.map(({ namespace, items }) => (
          <li key={namespace}>
            <a href={href('memory', namespace)}>{namespace}</a> <span class="muted">({items} items)</span>
          </li>
        ))}
      </ul>
    </>
  );
}

function Namespace({ namespace }: { namespace: string }) {
  const [items, setItems] = useState<MemoryItem[] | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const load = () =>
    api
      .GET('/v1/memory/{namespace}', { params: { path: { namespace }, query: { limit: 200 } } })
      .then(unwrap)
      .then((page) => setItems(page.items))
      .catch((caught) => setError(asProblem(caught)));
  useEffect(() => void load(), [namespace]);
  return (
    <>
      <h2>{namespace}</h2>
      <ProblemView error={error} />
      {items && items.length === 0 && <p class="muted">No items in this namespace.</p>}
      {items && items.length > 0 && (
        <table data-testid="memory-items">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
              <th scope="col">Version</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.key}>
                <td data-label="Key">
                  <a href={href('memory', namespace, item.key)}>{item.key}</a>
                </td>
                <td data-label="Value" class="mono">
                  {preview(item.value)}
                </td>
                <td data-label="Version">{item.version}</td>
                <td data-label="Expires">{item.expiresAt ? formatTime(item.expiresAt) : 'never'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PutForm namespace={namespace} onPut={() => void load()} />
      <SearchForm namespace={namespace} />
    </>
  );
}

/** Puts an item: a key, a JSON value, and a time to live. */
export function PutForm({ namespace, fixedKey, onPut }: { namespace: string; fixedKey?: string; onPut: () => void }) {
  const [key, setKey] = useState(fixedKey ?? '');
  const [value, setValue] = useState('');
  const [ttl, setTtl] = useState('');
  const [valueError, setValueError] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    let parsed: MemoryItem['value'];
    try {
      parsed = JSON.parse(value) as MemoryItem['value'];
      setValueError(null);
    } catch {
      return setValueError('value must be JSON: a string needs its quotes, "like this"');
    }
    const ttlSeconds = ttl.trim() ? Number(ttl) : undefined;
    try {
      unwrap(
        await api.PUT('/v1/memory/{namespace}/{key}', {
          params: { path: { namespace, key } },
          body: { value: parsed, ...(ttlSeconds !== undefined && { ttlSeconds }) },
        }),
      );
      setError(null);
      if (!fixedKey) setKey('');
      setValue('');
      onPut();
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Put an item">
      <h2>{fixedKey ? 'Put a new version' : 'Put an item'}</h2>
      {!fixedKey && <TextField id="memory-key" label="Key" path="key" value={key} set={setKey} error={error} />}
      <TextField
        id="memory-value"
        label="Value (JSON)"
        path="value"
        value={value}
        set={setValue}
        error={error}
        localError={valueError}
        rows={4}
      />
      <TextField
        id="memory-ttl"
        label="Time to live (seconds)"
        path="ttlSeconds"
        value={ttl}
        set={setTtl}
        error={error}
        hint="Blank: for good."
      />
      <ProblemView error={error} shownPaths={['key', 'value', 'ttlSeconds']} />
      <button type="submit">Put</button>
    </form>
  );
}

/**
 * Searches the namespace and those below it (by words, by meaning or both, or as the service chooses), with an
 * optional filter on the values' fields.
 */
function SearchForm({ namespace }: { namespace: string }) {
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode | ''>('');
  const [filter, setFilter] = useState('');
  const [filterError, setFilterError] = useState<string | null>(null);
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    let fields: Record<string, unknown>;
    try {
      fields = parseJsonObject(filter);
      setFilterError(null);
    } catch (caught) {
      return setFilterError((caught as Error).message);
    }
    try {
      const body = {
        namespace,
        query,
        filter: fields as Record<string, string | number | boolean>,
        ...(mode && { mode }),
      };
      setHits(unwrap(await api.POST('/v1/memory/search', { body })).items);
      setError(null);
    } catch (caught) {
      setHits(null);
      setError(asProblem(caught));
    }
  }

  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Search memory">
      <h2>Search</h2>
      <TextField id="memory-query" label="Words" path="query" value={query} set={setQuery} error={error} />
      <TextField
        id="memory-filter"
        label="Filter (JSON object, optional)"
        path="filter"
        value={filter}
        set={setFilter}
        error={error}
        localError={filterError}
        hint='Top-level fields the value must have, such as {"kind": "taste"}.'
      />
      <Field
        id="memory-mode"
        label="Search by"
        path="mode"
        error={error}
        hint="By meaning needs an embedding model (EMBEDDING_MODEL); the default then searches both ways."
      >
        {(describedBy, invalid) => (
          <select
            id="memory-mode"
            value={mode}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onChange={(e) => setMode(e.currentTarget.value as SearchMode | '')}
          >
            <option value="">the default: both ways when embeddings are on, else words</option>
            <option value="keyword">words (BM25)</option>
            <option value="semantic">meaning (cosine similarity)</option>
            <option value="hybrid">both, fused by rank</option>
          </select>
        )}
      </Field>
      <ProblemView error={error} shownPaths={['query', 'filter', 'mode']} />
      <button type="submit">Search</button>
      {hits && (
        <ol data-testid="memory-hits">
          {hits.length === 0 && <li class="muted">Nothing matches.</li>}
          {hits.map((hit) => (
            <li key={`${hit.namespace}/${hit.key}`}>
              <a href={href('memory', hit.namespace, hit.key)}>
                {hit.namespace} / {hit.key}
              </a>{' '}
              <span class="muted">score {hit.score.toFixed(hit.score < 0.1 ? 4 : 2)}</span>
              <pre>{formatJson(hit.value)}</pre>
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}
