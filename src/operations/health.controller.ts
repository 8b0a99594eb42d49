import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ApiProblems } from '../http/openapi/problem.schema';
import { PROBLEM_CONTENT_TYPE, RETRY_AFTER_SECONDS, problem } from '../http/problem';
import { ReadModelReadiness } from '../read-models/read-model-readiness';
import { CheckSchema, HealthSchema, ProbeSchema } from './health.schema';
import { StoreHealth } from './store-health';

@ApiTags('operations')
@ApiExtraModels(CheckSchema)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: StoreHealth,
    private readonly readModels: ReadModelReadiness,
  ) {}

  /**
   * 200 when the store answers and the read models have not failed; 503 (same body) otherwise. `ready` says
   * whether the read models are up to date (`readModels`: `following`, `behind` or `stopped`).
   */
  @ApiOperation({ summary: 'Whether the store answers and the read models follow it' })
  @ApiResponse({ status: 200, type: HealthSchema })
  @ApiResponse({
    status: 503,
    type: HealthSchema,
    description: 'The store does not answer, or the read models stopped',
  })
  @Get()
  async summary(@Res({ passthrough: true }) reply: FastifyReply) {
    const storeReachable = await this.checks.storeReachable();
    const readiness = this.readModels.readiness();
    const ok = storeReachable && this.readModels.healthy;
    void reply.status(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'unavailable',
      store: this.checks.kind,
      storeReachable,
      ready: storeReachable && readiness.ready,
      readModels: readiness.readModels,
      readModelPosition: readiness.position.toString(),
    };
  }

  /** The process is up and serving: for a liveness probe. */
  @ApiOperation({ summary: 'Liveness: the process serves requests' })
  @ApiResponse({ status: 200, type: ProbeSchema })
  @Get('live')
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** The store answers and the read models are up to date with it: for a readiness probe. */
  @ApiOperation({ summary: 'Readiness: the store answers and the read models are caught up' })
  @ApiResponse({ status: 200, type: ProbeSchema })
  @ApiProblems(503)
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult | object> {
    try {
      return await this.health.check([() => this.checks.storeCheck(), () => this.checks.readModelsCheck()]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse() as HealthCheckResult;
      const failing = Object.keys(result.error ?? {}).join(' and ');
      void reply.status(503).type(PROBLEM_CONTENT_TYPE).header('Retry-After', String(RETRY_AFTER_SECONDS));
      return {
        ...problem(503, 'not-ready', `Not ready: ${failing}`),
        instance: '/health/ready',
        details: result.details,
      };
    }
  }
}
