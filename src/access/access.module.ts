import { DynamicModule, Logger, Module, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccessConfig } from './access-config';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeys } from './api-keys';
import { RateLimitGuard } from './rate-limit.guard';

/** API keys and rate limits, for every route but the public ones (see public-paths.ts). */
@Module({})
export class AccessModule implements OnApplicationBootstrap {
  constructor(private readonly keys: ApiKeys) {}

  static forRoot(config: AccessConfig): DynamicModule {
    const keys = new ApiKeys(config.keys, config.readKeys);
    const guards: Provider[] = [];
    if (config.rateLimit > 0) guards.push({ provide: APP_GUARD, useClass: RateLimitGuard });
    guards.push({ provide: APP_GUARD, useClass: ApiKeyGuard });
    return {
      module: AccessModule,
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: config.rateLimitWindowMs, limit: Math.max(config.rateLimit, 1) }],
        }),
      ],
      providers: [{ provide: ApiKeys, useValue: keys }, ...guards],
      exports: [ApiKeys],
    };
  }

  onApplicationBootstrap(): void {
    if (this.keys.open) {
      new Logger('Access').warn('No API_KEYS are set: anyone who reaches the port can read and change everything');
    }
  }
}
