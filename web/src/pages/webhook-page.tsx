import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { DeliveryAttempt, Webhook } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href, navigate } from '../router';

/** One webhook: its settings, each delivery attempt (newest first), and a button to send a delivery again. */
export function WebhookPage({ webhookId }: { webhookId: string }) {
  const [webhook, setWebhook] = useState<Webhook | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState('');
  const path = { params: { path: { webhookId } } };

  useEffect(() => {
    api
      .GET('/v1/webhooks/{webhookId}', path)
      .then((result) => setWebhook(unwrap(result)))
      .catch((caught) => setError(asProblem(caught)));
  }, [webhookId, version]);

  const attempts = usePagedList<DeliveryAttempt>(async (cursor) => {
    const query = { limit: 50, cursor };
    const page = unwrap(
      await api.GET('/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId }, query } }),
    );
    return { items: page.attempts, nextCursor: page.nextCursor };
  }, `${webhookId}|${version}`);

  async function redeliver(deliveryId: string) {
    try {
      const attempt = unwrap(
        await api.POST('/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId, deliveryId } },
        }),
      );
      setNotice(`Sent again: ${attempt.status}${attempt.statusCode ? ` (${attempt.statusCode})` : ''}`);
      setError(null);
      setVersion((v) => v + 1);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  async function setEnabled(enabled: boolean) {
    try {
      setWebhook(unwrap(await api.PATCH('/v1/webhooks/{webhookId}', { ...path, body: { enabled } })));
      setError(null);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  async function remove() {
    if (!confirm('Delete this webhook? Nothing more is sent to it.')) return;
    try {
      const result = await api.DELETE('/v1/webhooks/{webhookId}', path);
      if (!result.response.ok) throw asProblem(result.error, result.response);
      navigate('webhooks');
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <main>
      <p>
        <a href={href('webhooks')}>← Webhooks</a>
      </p>
      <div class="page-head">
        <h1>Webhook</h1>
        {webhook && (
          <>
            <button type="button" class="secondary" onClick={() => setEnabled(!webhook.enabled)}>
              {webhook.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" class="secondary danger" onClick={remove}>
              Delete
            </button>
          </>
        )}
      </div>
      <ProblemView error={error ?? attempts.error} />
      {webhook && (
        <dl class="facts">
          <dt>URL</dt>
          <dd class="mono">{webhook.url}</dd>
          <dt>Events</dt>
          <dd class="mono">{webhook.events.join(', ')}</dd>
          <dt>Enabled</dt>
          <dd data-testid="webhook-enabled">
            {webhook.enabled ? 'yes' : `no${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}`}
          </dd>
          <dt>Created</dt>
          <dd>{formatTime(webhook.createdAt)}</dd>
        </dl>
      )}
      {webhook && !webhook.enabled && (
        <p class="hint">
          Events written while it is disabled are not sent; enabled again, it is sent the events from then on.
        </p>
      )}
      <h2>Deliveries</h2>
      <p role="status" data-testid="redeliver-notice">
        {notice}
      </p>
      <div class="table-wrap">
        <table data-testid="deliveries" class="cards">
          <caption class="visually-hidden">Delivery attempts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Status</th>
              <th scope="col">Response</th>
              <th scope="col">Duration</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {attempts.items.map((attempt) => (
              <tr key={`${attempt.deliveryId}/${attempt.attempt}/${attempt.attemptedAt}`}>
                <td data-label="Time">{formatTime(attempt.attemptedAt)}</td>
                <td data-label="Event" class="mono">
                  {attempt.eventType}
                </td>
                <td data-label="Attempt">
                  {attempt.attempt}
                  {attempt.redelivery ? ' (sent again)' : ''}
                </td>
                <td data-label="Status">
                  <StatusBadge status={attempt.status} />
                </td>
                <td data-label="Response">{attempt.statusCode ?? attempt.error ?? '—'}</td>
                <td data-label="Duration">{attempt.durationMs} ms</td>
                <td data-label="">
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Redeliver ${attempt.eventType} (${attempt.deliveryId}), attempt ${attempt.attempt}`}
                    onClick={() => redeliver(attempt.deliveryId)}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!attempts.loading && attempts.items.length === 0 && <p>No deliveries yet.</p>}
      <LoadMore hasMore={attempts.hasMore} loading={attempts.loading} onClick={attempts.loadMore} />
    </main>
  );
}
