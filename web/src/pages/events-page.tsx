import { useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type ProblemError } from '../api/client';
import type { EventEnvelope } from '../api/schema';
import { readSse } from '../api/sse';
import { ProblemView } from '../components/problem-view';
import { useDebounced } from '../components/use-debounced';
import { formatClock, formatJson, formatTime } from '../format';
import { href } from '../router';

/** How many events the tail keeps; older ones drop off the top (the log itself keeps them all). */
const KEPT = 200;

/** A live tail of /v1/events, filtered by type and stream; an event opens its envelope, a stream its history. */
export function EventsPage() {
  const [types, setTypes] = useState('');
  const [stream, setStream] = useState('');
  const [events, setEvents] = useState<EventEnvelope[]>([]);
  const [selected, setSelected] = useState<EventEnvelope | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [live, setLive] = useState(false);
  const filters = useDebounced(`${types.replace(/\s/g, '')}|${stream.replace(/\s/g, '')}`, 400);
  const pending = useRef<EventEnvelope[]>([]);

  useEffect(() => {
    const abort = new AbortController();
    const [typeList, streamList] = filters.split('|');
    const query = new URLSearchParams();
    if (typeList) query.set('types', typeList);
    if (streamList) query.set('stream', streamList);
    setEvents([]);
    setError(null);
    setLive(true);
    // Events arrive in bursts (the whole log on connect): render at most once a frame.
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending.current;
      pending.current = [];
      setEvents((old) => [...batch.reverse(), ...old].slice(0, KEPT));
    };
    readSse(`/v1/events${query.size ? `?${query}` : ''}`, abort.signal, (message) => {
      pending.current.push(JSON.parse(message.data));
      if (pending.current.length > KEPT) pending.current.splice(0, pending.current.length - KEPT);
      frame ||= requestAnimationFrame(flush);
    })
      .catch((caught) => !abort.signal.aborted && setError(asProblem(caught)))
      .finally(() => !abort.signal.aborted && setLive(false));
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
            <caption class="visually-hidden">Latest events, newest first</caption>
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
                  <td>
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
          {events.length === 0 && (
            <p class="muted">
              No events{filters !== '|' ? ' match these filters' : ''} yet; new ones appear here as they are written.
            </p>
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
