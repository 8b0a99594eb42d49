import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from './event-store/event-store';
import { ProjectionRunner } from './read-models/projection-runner';

class HealthSchema {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: string;

  @ApiProperty()
  store: string;

  @ApiProperty()
  storeReachable: boolean;

  @ApiProperty({ description: 'The store answers and the read models are up to date with the log.' })
  ready: boolean;

  @ApiProperty({ enum: ['following', 'behind', 'stopped'] })
  readModels: string;

  @ApiProperty({ description: 'The position in the log the read models have reached.' })
  readModelPosition: string;
}

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
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
  @Get('health')
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    const storeReachable = await this.store.readStream('health-check', { maxCount: 1 }).then(
      () => true,
      () => false,
    );
    const ok = storeReachable && this.projections.healthy;
    const readiness = this.projections.readiness();
    void reply.status(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'unavailable',
      store: this.store.description,
      storeReachable,
      ready: storeReachable && readiness.ready,
      readModels: readiness.readModels,
      readModelPosition: readiness.position.toString(),
    };
  }
}
