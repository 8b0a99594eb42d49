import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `GET /v1/agents/{id}` and `GET /v1/workflows/{id}`: `?version=N` reads the definition as it was at version N. */
export class VersionQuery {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 2_147_483_647,
    description:
      'The definition as it was at this version (folded from its events): 404 for a version it never had. Default: the current one.',
  })
  @Max(2_147_483_647, { message: 'version must be at most 2147483647' })
  @Min(1, { message: 'version must be at least 1' })
  @IsInt({ message: 'version must be a positive integer' })
  @Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value))
  @IsOptional()
  version?: number;
}
