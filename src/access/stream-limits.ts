import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ACCESS_CONFIG, AccessConfig } from '../config/access-config';
import { ApiKeys, bearerToken, digestOf } from './api-keys';

/** A client has as many streams open as `SSE_MAX_STREAMS_PER_KEY` allows; answered as a 429 `too-many-streams`. */
export class TooManyStreams extends Error {
  constructor(readonly limit: number) {
    super(`At most ${limit} event streams may be open at once per API key (per address without keys); close one first`);
    this.name = 'TooManyStreams';
  }
}

/**
 * Bounds the server-sent event streams each client holds open (`GET /v1/events` and runs' `/stream` alike): per
 * valid key, or per client address when the request carries none, as the rate limit counts.
 */
@Injectable()
export class StreamLimits {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeys,
    @Inject(ACCESS_CONFIG) private readonly config: Pick<AccessConfig, 'maxStreamsPerKey'>,
  ) {}

  /** Counts a stream for the request's client, or throws TooManyStreams; returns its release (safe to call twice). */
  acquire(request: FastifyRequest): () => void {
    const client = clientOf(request, this.keys);
    const count = this.open.get(client) ?? 0;
    if (count >= this.config.maxStreamsPerKey) throw new TooManyStreams(this.config.maxStreamsPerKey);
    this.open.set(client, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(client) ?? 1) - 1;
      if (left > 0) this.open.set(client, left);
      else this.open.delete(client);
    };
  }
}

/** Who a request counts against: its key when it is a valid one, its address otherwise. */
export function clientOf(request: FastifyRequest, keys: ApiKeys): string {
  const token = bearerToken(request.headers.authorization);
  const validKey = token !== undefined && keys.accessOf(token) ? token : undefined;
  return validKey ? `key:${digestOf(validKey).toString('hex').slice(0, 32)}` : `ip:${request.ip}`;
}
