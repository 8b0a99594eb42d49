import { useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Webhook } from '../api/schema';
import { Field } from '../components/field';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href } from '../router';

/** Webhooks: the list, and a form to add one, which shows the new signing secret this once. */
export function WebhooksPage() {
  const [version, setVersion] = useState(0);
  const list = usePagedList<Webhook>(async (cursor) => {
    const page = unwrap(await api.GET('/v1/webhooks', { params: { query: { limit: 50, cursor } } }));
    return { items: page.webhooks, nextCursor: page.nextCursor };
  }, String(version));

  return (
    <main>
      <div class="page-head">
        <h1>Webhooks</h1>
      </div>
      <p class="muted">
        Events are sent to each URL as they happen, in order, signed as Standard Webhooks; failed deliveries are retried
        for 24 hours.
      </p>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Webhooks</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Enabled</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((webhook) => (
              <tr key={webhook.id}>
                <td data-label="URL" class="truncate">
                  <a href={href('webhooks', webhook.id)}>{webhook.url}</a>
                </td>
                <td data-label="Events" class="mono">
                  {webhook.events.join(', ')}
                </td>
                <td data-label="Enabled">
                  {webhook.enabled ? 'yes' : `no${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}`}
                </td>
                <td data-label="Created">{formatTime(webhook.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No webhooks yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
      <CreateWebhook onCreated={() => setVersion(version + 1)} />
    </main>
  );
}

function CreateWebhook({ onCreated }: { onCreated: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('AgentRunSucceeded, AgentRunFailed');
  const [error, setError] = useState<ProblemError | null>(null);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const types = events
        .split(/[\s,]+/)
        .map((type) => type.trim())
        .filter(Boolean);
      const webhook = unwrap(await api.POST('/v1/webhooks', { body: { url: url.trim(), events: types } }));
      setCreated({ id: webhook.id, secret: webhook.secret ?? '' });
      setError(null);
      setUrl('');
      onCreated();
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="new-webhook">
      <h2 id="new-webhook">New webhook</h2>
      {created && (
        <div class="card" role="status" data-testid="webhook-secret">
          <p>
            <strong>Signing secret</strong> of <a href={href('webhooks', created.id)}>{created.id}</a>, shown this once:
            keep it now.
          </p>
          <pre class="mono">{created.secret}</pre>
        </div>
      )}
      <form class="card" onSubmit={submit} noValidate>
        <Field id="webhook-url" label="URL" path="url" error={error} hint="https, or http to an allowed host">
          {(describedBy, invalid) => (
            <input
              id="webhook-url"
              type="url"
              value={url}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="webhook-events"
          label="Events"
          path="events"
          error={error}
          hint="Event types or globs, separated by commas: AgentRun*, WorkflowRunSucceeded, *"
        >
          {(describedBy, invalid) => (
            <input
              id="webhook-events"
              value={events}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(e) => setEvents(e.currentTarget.value)}
            />
          )}
        </Field>
        <ProblemView error={error} shownPaths={['url', 'events']} />
        <button type="submit" disabled={busy}>
          Create webhook
        </button>
      </form>
    </section>
  );
}
