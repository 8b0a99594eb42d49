import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { EVENT_STORE, EventStore } from './event-store/event-store';
import { ProjectionRunner } from './read-models/projection-runner';

@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  /** 200 when the service can take writes and its read models are being kept up to date; 503 otherwise. */
  @Get('health')
  health() {
    const body = {
      status: this.projections.healthy ? 'ok' : 'degraded',
      store: this.store.description,
      readModelPosition: this.projections.position.toString(),
    };
    if (!this.projections.healthy) throw new HttpException(body, 503);
    return body;
  }
}
