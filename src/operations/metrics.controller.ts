import { Controller, Get, Header, Headers, Inject, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { timingSafeEqual } from 'node:crypto';
import { ACCESS_CONFIG, AccessConfig } from '../config/access-config';
import { bearerToken, digestOf } from '../access/api-keys';
import { Metrics } from './metrics';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  private readonly tokenDigest?: Buffer;

  constructor(
    private readonly metrics: Metrics,
    @Inject(ACCESS_CONFIG) config: Pick<AccessConfig, 'metricsToken'>,
  ) {
    if (config.metricsToken) this.tokenDigest = digestOf(config.metricsToken);
  }

  @ApiOperation({
    summary: 'Prometheus metrics',
    description: 'With `METRICS_TOKEN` set, send it as `Authorization: Bearer <token>`; without it, 401.',
  })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'The Prometheus text format',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(@Headers('authorization') authorization: string | undefined): Promise<string> {
    if (this.tokenDigest) {
      const token = bearerToken(authorization);
      // Compared as digests, in constant time.
      if (token === undefined || !timingSafeEqual(digestOf(token), this.tokenDigest))
        throw new UnauthorizedException('/metrics needs METRICS_TOKEN: send "Authorization: Bearer <token>"');
    }
    return this.metrics.registry.metrics();
  }
}
