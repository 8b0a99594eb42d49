import { useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type ProblemError } from '../api/client';
import type { EventEnvelope } from '../api/schema';
import { eventPage } from '../api/event-pages';
import { readSse } from '../api/sse';
import { ProblemView } from '../components/problem-view';
import { useDebounced } from '../components/use-debounced';
import { formatClock, formatJson, formatTime } from '../format';
import { href } from '../router';

/** How many events the page keeps; past it, the oldest drop off the bottom ("Load older" brings them back). */
const KEPT = 1000;
/** Events asked for per page of older ones. */
const PAGE = 100;
/** Bounded reads may come back short while older events exist: a few are read in a row to fill a page. */
const READS_PER_PAGE = 5;

type Filters = { types?: string; stream?: string };

/**
 * The event log, newest first: it opens on the latest events (a page read backwards from the head), goes live from
 * there (server-sent events after the head), and pages back on request; filtered by type and stream. An event
 * opens its envelope, a stream its history.
 */
export function EventsPage() {
  const [types, setTypes] = useState('');
  const [stream, setStream] = useState('');
  const [events, setEvents] = useState<EventEnvelope[]>([]);
  const [selected, setSelected] = useState<EventEnvelope | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [live, setLive] = useState(false);
  /** Where "Load older" goes on from (a position to read before), or null at the start of the log. */
  const [older, setOlder] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const filters = useDebounced(`${types.replace(/\s/g, '')}|${stream.replace(/\s/g, '')}`, 400);
  const pending = useRef<EventEnvelope[]>([]);
  const current = useRef<{ filters: Filters; signal?: AbortSignal }>({ filters: {} });

  /** Reads pages back from `before` until one page's worth came or the log starts; appends them at the bottom. */
  async function loadOlder(before: string, filters: Filters, signal: AbortSignal): Promise<void> {
    setLoadingOlder(true);
    try {
      const found: EventEnvelope[] = [];
      let next: string | null = before;
      for (let reads = 0; next !== null && found.length < PAGE && reads < READS_PER_PAGE; reads++) {
        const page = await eventPage({ ...filters, order: 'desc', before: next, limit: PAGE - found.length });
        found.push(...page.events);
        next = page.more ? (page.nextBefore ?? null) : null;
      }
      if (signal.aborted) return;
      setEvents((old) => [...old, ...found]);
      setOlder(next);
    } catch (caught) {
      if (!signal.aborted) setError(asProblem(caught));
    } finally {
      if (!signal.aborted) setLoadingOlder(false);
    }
  }

  useEffect(() => {
    const abort = new AbortController();
    const [typeList, streamList] = filters.split('|');
    const selection: Filters = {};
    if (typeList) selection.types = typeList;
    if (streamList) selection.stream = streamList;
    current.current = { filters: selection, signal: abort.signal };
    setEvents([]);
    setOlder(null);
    setError(null);
    setLive(true);
    // Live events arrive in bursts: render at most once a frame; past KEPT, the oldest rows go.
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending.current;
      pending.current = [];
      setEvents((old) => {
        const all = [...batch.reverse(), ...old];
        if (all.length <= KEPT) return all;
        setOlder(all[KEPT - 1].position);
        return all.slice(0, KEPT);
      });
    };
    (async () => {
      // The head first: the stream goes live after it, and the first page reads back from it, so that no event
      // is missed or shown twice between the two.
      const end = await eventPage({ ...selection, from: 'end', limit: 1 });
      if (abort.signal.aborted) return;
      const head = end.nextAfter ?? '0';
      const query = new URLSearchParams({ ...selection, after: head });
      readSse(`/v1/events?${query}`, abort.signal, (message) => {
        pending.current.push(JSON.parse(message.data));
        if (pending.current.length > KEPT) pending.current.splice(0, pending.current.length - KEPT);
        frame ||= requestAnimationFrame(flush);
      })
        .catch((caught) => !abort.signal.aborted && setError(asProblem(caught)))
        .finally(() => !abort.signal.aborted && setLive(false));
      await loadOlder((BigInt(head) + 1n).toString(), selection, abort.signal);
    })().catch((caught) => {
      if (abort.signal.aborted) return;
      setError(asProblem(caught));
      setLive(false);
    });
    return () => {
      abort.abort();
      cancelAnimationFrame(frame);
      pending.current = [];
    };
  }, [filters]);

  return (
    <main>
      <div class="page-head">
        <h1>Event log</h1>
        <span role="status" class="muted">
          {live ? 'live' : 'disconnected'}
        </span>
      </div>
      <div class="filters">
        <div class="field">
          <label for="event-types">Types (comma-separated)</label>
          <input
            id="event-types"
            placeholder="AgentCreated,WorkflowTriggered"
            value={types}
            onInput={(e) => setTypes(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="event-stream">Stream</label>
          <input
            id="event-stream"
            placeholder="workflow-wf_01…"
            value={stream}
            onInput={(e) => setStream(e.currentTarget.value)}
          />
        </div>
      </div>
      <ProblemView error={error} shownPaths={[]} />
      <div class={selected ? 'split' : undefined}>
        <div class="table-wrap">
          <table data-testid="event-log" class="event-log">
            <caption class="visually-hidden">Events, newest first</caption>
            <thead>
              <tr>
                <th scope="col" class="col-position">
                  Position
                </th>
                <th scope="col" class="col-type">
                  Type
                </th>
                <th scope="col" class="col-stream">
                  Stream
                </th>
                <th scope="col" class="col-recorded">
                  Recorded
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.position} class={selected?.position === event.position ? 'selected' : ''}>
                  <td class="col-position">{event.position}</td>
                  <td class="col-type">
                    <button
                      type="button"
                      class="link"
                      onClick={() => setSelected(event)}
                      aria-pressed={selected?.position === event.position}
                    >
                      {event.type}
                    </button>
                  </td>
                  <td>
                    <a href={href('history', event.stream)} title={event.stream}>
                      {event.stream}
                    </a>
                  </td>
                  <td class="col-recorded">
                    <time dateTime={event.recordedAt} title={formatTime(event.recordedAt)}>
                      {formatClock(event.recordedAt)}
                    </time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {events.length === 0 && !loadingOlder && (
            <p class="muted">
              No events{filters !== '|' ? ' match these filters' : ''}
              {older ? ' among the latest' : ' yet'}; new ones appear here as they are written.
            </p>
          )}
          {loadingOlder ? (
            <p aria-live="polite">Loading…</p>
          ) : (
            older && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  const { filters: selection, signal } = current.current;
                  if (signal) void loadOlder(older, selection, signal);
                }}
              >
                Load older
              </button>
            )
          )}
        </div>
        {selected && (
          <section class="card envelope" aria-labelledby="envelope-title">
            <div class="page-head">
              <h2 id="envelope-title">
                {selected.type} #{selected.position}
              </h2>
              <button type="button" class="secondary" onClick={() => setSelected(null)}>
                Close
              </button>
            </div>
            <pre data-testid="envelope" tabIndex={0} aria-label="Event envelope">
              {formatJson(selected)}
            </pre>
          </section>
        )}
      </div>
    </main>
  );
}
