import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { ApiKeys, bearerToken, digestOf } from './api-keys';
import { isPublicPath } from './public-paths';

/**
 * Limits requests per key, or per client address when the request carries no valid key (so made-up keys do not
 * buy fresh allowances). Past the limit: 429 with `Retry-After`.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  @Inject(ApiKeys) private readonly keys: ApiKeys;

  protected override async getTracker(request: Record<string, any>): Promise<string> {
    const token = bearerToken((request as FastifyRequest).headers.authorization);
    if (token !== undefined && this.keys.accessOf(token)) return `key:${digestOf(token).toString('hex').slice(0, 32)}`;
    return `ip:${(request as FastifyRequest).ip}`;
  }

  /** One allowance per client across all routes (the default keeps one per route). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return isPublicPath(context.switchToHttp().getRequest<FastifyRequest>().url);
  }
}
