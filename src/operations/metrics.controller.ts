import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Metrics } from './metrics';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'The Prometheus text format',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
