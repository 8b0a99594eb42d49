import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** `DELETE /v1/agents/{id}?force=true`: archive even an agent that workflows not archived name in their steps. */
export class ArchiveAgentQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Default: false, and an agent that workflows use is refused with 409, naming them.',
  })
  @IsIn(['true', 'false'], { message: 'force must be true or false' })
  @IsOptional()
  force?: 'true' | 'false';
}
