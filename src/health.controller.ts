import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from './event-store/event-store';
import { ProjectionRunner } from './read-models/projection-runner';

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
