import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { StoreHealth } from './store-health';

/** What the people who run the service use: health and readiness probes, and Prometheus metrics. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [StoreHealth, Metrics],
  exports: [Metrics],
})
export class OperationsModule {}
