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

  /** The kind of store (`sqlite`, `eventstoredb`): anyone may see it; the description's path or hosts stay in the log. */
  get kind(): string {
    return this.store.description.split(/[\s(,]/)[0];
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
      ? check.up({ kind: this.kind })
      : check.down({ kind: this.kind, message: 'The event store does not answer' });
  }

  readModelsCheck() {
    const check = this.indicators.check('readModels');
    const { ready, readModels, position } = this.readModels.readiness();
    const data = { state: readModels, position: position.toString() };
    return ready ? check.up(data) : check.down(data);
  }
}
