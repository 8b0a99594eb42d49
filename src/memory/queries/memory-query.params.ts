import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsRFC3339, IsString, Max, MaxLength, Min, IsInt } from 'class-validator';
import { SEARCH_MODES, SearchMode } from './memory-search';
import { ListQuery } from '../../http/paging';
import { Optional } from '../../http/validation';
import { PAGE_ITEMS } from '../../http/openapi/fields';

export class MemoryListQuery extends ListQuery {
  @ApiPropertyOptional({ maxLength: 200, description: 'Only the keys that begin with it.' })
  @MaxLength(200)
  @IsString({ message: 'prefix must be given once' })
  @Optional()
  prefix?: string;
}

export class MemoryItemQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: 40,
    description: 'The item as it was at this time (RFC 3339): its last version by then.',
  })
  @IsRFC3339({ message: 'asOf must be an RFC 3339 time, such as 2026-11-01T00:00:00Z' })
  @Optional()
  asOf?: string;
}

export class MemorySearchDto {
  @ApiProperty({ maxLength: 808, example: 'users/ada', description: 'Searches it and the namespaces below it.' })
  @IsString({ message: 'namespace must be a string' })
  @IsDefined({ message: 'namespace is required' })
  namespace: string;

  @ApiProperty({ maxLength: 1000, example: 'what does she eat', description: 'Words; any of them may match.' })
  @MaxLength(1000)
  @IsString({ message: 'query must be a string' })
  @IsDefined({ message: 'query is required' })
  query: string;

  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_ITEMS, description: 'Default: 10.' })
  @Max(PAGE_ITEMS)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  @Optional()
  limit?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
    maxProperties: 10,
    example: { kind: 'preference' },
    description: "Top-level fields the item's value must have, each with that value.",
  })
  @IsObject({ message: 'filter must be an object' })
  @Optional()
  filter?: Record<string, string | number | boolean | null>;

  @ApiPropertyOptional({
    enum: SEARCH_MODES,
    description:
      '`keyword`: by words, scored by BM25. `semantic`: by meaning, scored by the cosine similarity of embeddings (needs `EMBEDDING_MODEL`, else a 409). `hybrid`: both, fused by reciprocal rank (each list adds 1/(60 + rank)). Default: `hybrid` when `EMBEDDING_MODEL` is set, else `keyword`.',
  })
  @IsIn(SEARCH_MODES, { message: `mode must be one of ${SEARCH_MODES.join(', ')}` })
  @Optional()
  mode?: SearchMode;
}
