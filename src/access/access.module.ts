import { DynamicModule, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { ACCESS_CONFIG, AccessConfig } from '../config/access-config';
import { AccessControl } from './access-control';
import { ApiKeys } from './api-keys';
import { StreamLimits } from './stream-limits';

/** API keys and rate limits for every `/v1` route (see access-control.ts; `createApp` registers its hook). */
@Module({})
export class AccessModule implements OnApplicationBootstrap {
  constructor(private readonly keys: ApiKeys) {}

  static forRoot(config: AccessConfig): DynamicModule {
    return {
      module: AccessModule,
      global: true,
      providers: [
        { provide: ApiKeys, useValue: new ApiKeys(config.keys, config.readKeys) },
        { provide: ACCESS_CONFIG, useValue: config },
        ThrottlerStorageService,
        AccessControl,
        StreamLimits,
      ],
      exports: [ApiKeys, AccessControl, StreamLimits, ACCESS_CONFIG],
    };
  }

  onApplicationBootstrap(): void {
    if (this.keys.open) {
      new Logger('Access').warn('No API_KEYS are set: anyone who reaches the port can read and change everything');
    }
  }
}
