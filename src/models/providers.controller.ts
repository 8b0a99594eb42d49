import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProviderCatalog } from './provider-catalog';
import { ProviderListSchema } from './provider.schema';

@ApiTags('providers')
@Controller('v1/providers')
export class ProvidersController {
  constructor(private readonly catalog: ProviderCatalog) {}

  @ApiOperation({ summary: 'List the model providers: configured or not, and their models where they list them' })
  @ApiResponse({ status: 200, type: ProviderListSchema })
  @Get()
  async list() {
    return { providers: await this.catalog.list() };
  }
}
