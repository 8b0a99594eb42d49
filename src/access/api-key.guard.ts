import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeys, bearerToken } from './api-keys';
import { isPublicPath } from './public-paths';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With keys configured, every `/v1` route needs `Authorization: Bearer <key>` (401 otherwise); a read-only key
 * may only read (403 for a write). Without keys the API is open.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.keys.open) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (isPublicPath(request.url)) return true;
    const token = bearerToken(request.headers.authorization);
    const access = token === undefined ? undefined : this.keys.accessOf(token);
    if (!access) {
      void http
        .getResponse<FastifyReply>()
        .header('WWW-Authenticate', `Bearer realm="workflows"${token ? ', error="invalid_token"' : ''}`);
      throw new UnauthorizedException(
        token ? 'The API key is not valid' : 'An API key is needed: send "Authorization: Bearer <key>"',
      );
    }
    if (access === 'read' && !READ_METHODS.has(request.method)) {
      throw new ForbiddenException('This API key may only read');
    }
    return true;
  }
}
