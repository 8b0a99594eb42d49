import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { ReadModelReadiness } from '../read-models/read-model-readiness';

/** The checks behind the health routes: the event store answers; the read models are up to date with it. */
@Injectable()
export class StoreHealth {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly readModels: ReadModelReadiness,
    private readonly indicators: HealthIndicatorService,
  ) {}

  get description(): string {
    return this.store.description;
  }

  async storeReachable(): Promise<boolean> {
    return this.store.readStream('health-check', { maxCount: 1 }).then(
      () => true,
      () => false,
    );
  }

  async storeCheck() {
    const check = this.indicators.check('store');
    return (await this.storeReachable())
      ? check.up({ description: this.store.description })
      : check.down({ description: this.store.description, message: 'The event store does not answer' });
  }

  readModelsCheck() {
    const check = this.indicators.check('readModels');
    const { ready, readModels, position } = this.readModels.readiness();
    const data = { state: readModels, position: position.toString() };
    return ready ? check.up(data) : check.down(data);
  }
}
