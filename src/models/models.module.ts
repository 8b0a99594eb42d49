import { Module } from '@nestjs/common';
import { ProviderCatalog } from './provider-catalog';
import { ProvidersController } from './providers.controller';

/** `GET /v1/providers`: which providers are configured, and their models; needs the core module's config and clock. */
@Module({ providers: [ProviderCatalog], controllers: [ProvidersController] })
export class ModelsModule {}
