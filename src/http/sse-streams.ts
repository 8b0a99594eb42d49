import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StreamLimits } from '../access/stream-limits';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SseWriter } from './sse';

/**
 * The server-sent event responses of the routes that stream (`GET /v1/events`, a run's `/stream`). Each one counts
 * against its client's open streams (StreamLimits) until it closes, and all of them are ended when the service
 * stops, so that they do not hold the shutdown open.
 */
@Injectable()
export class SseStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<SseWriter>();

  constructor(
    private readonly limits: StreamLimits,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'sseHeartbeatMs'>,
  ) {}

  /**
   * Turns the reply into a stream, or throws TooManyStreams (a 429) when the client has as many open as it may.
   * `onClose` runs once the stream is over: the client went away, the route ended it, or the service stopped.
   */
  start(request: FastifyRequest, reply: FastifyReply, onClose: () => void): SseWriter {
    const release = this.limits.acquire(request);
    try {
      const sse: SseWriter = new SseWriter(
        reply,
        () => {
          release();
          this.open.delete(sse);
          onClose();
        },
        { heartbeatMs: this.config.sseHeartbeatMs },
      );
      this.open.add(sse);
      return sse;
    } catch (error) {
      release();
      throw error;
    }
  }

  beforeApplicationShutdown(): void {
    for (const sse of this.open) sse.end();
  }
}
