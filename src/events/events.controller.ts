import { BeforeApplicationShutdown, Controller, Get, Headers, Inject, Query, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeys, bearerToken } from '../access/api-keys';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { SseStreams } from '../http/sse-streams';
import { Slots } from '../shared/slots';
import { EventFeed } from '../live/event-feed';
import { EventLogStream } from './event-log-stream';
import { readEventLogPage } from './event-pages';
import { ApiEventPaging, EventLogPageSchema } from './event.schema';
import { EventLogQuery, RawQuery, parseEventLogQuery } from './event-query';
import { LOG_READ_SLOTS, SLOW_READER_MS } from './log-read-slots';

/** The public face of the event log: server-sent events with `Accept: text/event-stream`, JSON pages otherwise. */
@ApiTags('events')
@Controller('v1/events')
export class EventsController implements BeforeApplicationShutdown {
  /** The streams open now: stopped before the feed when the service stops. */
  private readonly open = new Set<EventLogStream>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly feed: EventFeed,
    private readonly streams: SseStreams,
    private readonly keys: ApiKeys,
    @Inject(LOG_READ_SLOTS) private readonly slots: Slots,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'eventLog'>,
  ) {}

  @ApiOperation({
    summary:
      'The event log: server-sent events with Accept: text/event-stream (catch up, then live), JSON pages otherwise',
  })
  @ApiEventPaging('A position: the events after it. For streams, `Last-Event-ID` does the same.')
  @ApiQuery({
    name: 'from',
    required: false,
    description:
      '`end`: start after the last event (a stream then goes live; a page is empty, its `nextAfter` the head).',
    schema: { type: 'string', enum: ['end'] },
  })
  @ApiQuery({
    name: 'order',
    required: false,
    description: 'JSON pages only: `desc` for the newest first, paging on with `before`. Default `asc`.',
    schema: { type: 'string', enum: ['asc', 'desc'] },
  })
  @ApiQuery({
    name: 'before',
    required: false,
    description: 'With `order=desc`: a position (`nextBefore`); the events before it.',
    schema: { type: 'string', maxLength: 20 },
  })
  @ApiQuery({ name: 'types', required: false, description: 'Event types, comma-separated or repeated.' })
  @ApiQuery({ name: 'stream', required: false, description: 'Stream names, comma-separated or repeated.' })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'A page of events; or, for text/event-stream, one message per event (`id` its position).',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(EventLogPageSchema) } },
      'text/event-stream': { schema: { type: 'string' } },
    },
  })
  @ApiExtraModels(EventLogPageSchema)
  @Get()
  async events(
    @Query() raw: RawQuery,
    @Req() request: FastifyRequest,
    @Headers('accept') accept: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    reply.header('vary', 'accept');
    if (!accept?.includes('text/event-stream')) {
      await this.sendPage(this.forCaller(parseEventLogQuery(raw), request), reply);
      return;
    }
    const query = this.forCaller(parseEventLogQuery(raw, { lastEventId, stream: true }), request);
    let stream: EventLogStream | undefined;
    const sse = this.streams.start(request, reply, () => {
      if (!stream) return;
      this.open.delete(stream);
      stream.stop();
    });
    try {
      stream = await EventLogStream.open(this.feed, sse, query);
    } catch {
      // The feed could not start (the store is down): the client reconnects and resumes with Last-Event-ID.
      sse.end();
      return;
    }
    if (sse.isClosed) stream.stop();
    else this.open.add(stream);
  }

  /** Read-only keys never see webhooks' events (their URLs often carry tokens), in pages or streams. */
  private forCaller(query: EventLogQuery, request: FastifyRequest): EventLogQuery {
    const token = bearerToken(request.headers.authorization);
    const readOnly = !this.keys.open && token !== undefined && this.keys.accessOf(token) === 'read';
    return readOnly ? { ...query, selection: { ...query.selection, withoutWebhooks: true } } : query;
  }

  /**
   * A JSON page, read in one of the process's log-read slots and holding it until the client has taken the page
   * (or SLOW_READER_MS passed, when the response is cut off): pages in memory stay bounded however many are asked.
   */
  private async sendPage(query: EventLogQuery, reply: FastifyReply): Promise<void> {
    const release = await this.slots.acquire();
    let body: Buffer;
    try {
      body = await readEventLogPage(this.store, query, this.config.eventLog.pageMaxBytes);
    } catch (error) {
      release();
      throw error;
    }
    const slow = setTimeout(() => reply.raw.destroy(), SLOW_READER_MS);
    reply.raw.once('close', () => {
      clearTimeout(slow);
      release();
    });
    await reply.type('application/json; charset=utf-8').send(body);
  }

  /** The streams open now (for tests and diagnostics). */
  get subscribers(): readonly EventLogStream[] {
    return [...this.open];
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const stream of this.open) stream.stop();
    this.open.clear();
    await this.feed.stop();
  }
}
