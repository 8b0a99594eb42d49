import { useState } from 'preact/hooks';
import { eventPage } from '../api/event-pages';
import type { EventEnvelope } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { usePagedList } from '../components/use-paged-list';
import { formatJson, formatTime } from '../format';
import { href } from '../router';

/** The link to the page of the resource a stream belongs to, when it has one. */
function resourceLink(stream: string, first: EventEnvelope | undefined): string | null {
  const [category, id] = stream.split(/-(.*)/s);
  if (category === 'agent') return href('agents', id);
  if (category === 'workflow') return href('workflows', id);
  if (category === 'agentrun') return href('agent-runs', id);
  if (category === 'workflowrun' && typeof first?.data.workflowId === 'string')
    return href('workflows', first.data.workflowId, 'runs', id);
  return null;
}

/** The version an agent's or workflow's event made (its creation is version 1), with the page that shows it. */
function versionLink(event: EventEnvelope): string | null {
  const [category, id] = event.stream.split(/-(.*)/s);
  if (category !== 'agent' && category !== 'workflow') return null;
  const version = event.type.endsWith('Created') ? 1 : event.data.version;
  return typeof version === 'number' ? href(`${category}s`, id, 'versions', String(version)) : null;
}

/** One stream's events, oldest first, a page at a time (from /v1/events filtered by the stream). */
export function HistoryPage({ stream }: { stream: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const list = usePagedList<EventEnvelope>(async (after) => {
    const page = await eventPage({ stream, after, limit: 100 });
    return { items: page.events, nextCursor: page.more ? (page.nextAfter ?? null) : null };
  }, stream);
  const link = resourceLink(stream, list.items[0]);
  return (
    <main>
      <p>
        <a href={href('events')}>← Event log</a>
      </p>
      <h1>History of {stream}</h1>
      {link && (
        <p>
          <a href={link}>Open this resource</a>
        </p>
      )}
      <ProblemView error={list.error} />
      <ol class="history" start={0}>
        {list.items.map((event) => (
          <li key={event.position} class="card">
            <button
              type="button"
              class="link"
              aria-expanded={open === event.position}
              onClick={() => setOpen(open === event.position ? null : event.position)}
            >
              {event.type}
            </button>{' '}
            <span class="muted">{formatTime(event.recordedAt)}</span>
            {versionLink(event) && (
              <>
                {' '}
                <a href={versionLink(event)!}>
                  View version {event.type.endsWith('Created') ? 1 : String(event.data.version)}
                </a>
              </>
            )}
            {open === event.position && <pre>{formatJson(event)}</pre>}
          </li>
        ))}
      </ol>
      {!list.loading && list.items.length === 0 && <p>No events in this stream.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
    </main>
  );
}
