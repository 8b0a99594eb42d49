import { ApiProperty } from '@nestjs/swagger';
import { KNOWN_PROVIDERS } from './model-id';
import { LIST_ITEMS, NAME_LENGTH } from '../http/openapi/fields';

export class ProviderSchema {
  @ApiProperty({ enum: KNOWN_PROVIDERS, description: 'The prefix of model ids: `<provider>/<model>`.' })
  id: string;

  @ApiProperty({ description: 'Whether runs can use it; Ollama needs no key and counts as configured.' })
  configured: boolean;

  @ApiProperty({
    maxLength: 64,
    example: 'OPENAI_API_KEY',
    description: 'The environment variable that configures it.',
  })
  variable: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: NAME_LENGTH },
    maxItems: 10_000,
    nullable: true,
    example: ['llama3.2'],
    description: 'Its models, for Ollama and OpenAI-compatible servers that answered `GET /models`; else null.',
  })
  models: string[] | null;

  @ApiProperty({
    type: String,
    maxLength: 2048,
    nullable: true,
    description: 'Why the models could not be listed (unreachable, no answer in time, an error status).',
  })
  modelsError: string | null;
}

export class ProviderListSchema {
  @ApiProperty({ type: [ProviderSchema], maxItems: LIST_ITEMS })
  providers: ProviderSchema[];
}
