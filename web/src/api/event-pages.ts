import { api, asProblem, unwrap } from './client';
import type { components } from './schema';

export type EventPage = components['schemas']['EventPageSchema'];
export type EventLogPage = components['schemas']['EventLogPageSchema'];

/** One JSON page of /v1/events (the route also streams, for `Accept: text/event-stream`; see `readSse`). */
export async function eventPage(query: {
  stream?: string;
  types?: string;
  after?: string;
  before?: string;
  from?: 'end';
  order?: 'asc' | 'desc';
  limit?: number;
}): Promise<EventLogPage> {
  const page = unwrap(await api.GET('/v1/events', { params: { query } }));
  if (typeof page === 'string') throw asProblem(new Error('Expected a JSON page of events'));
  return page;
}
