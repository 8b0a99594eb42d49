import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../../domain/run';
import { LIST_ITEMS, TEXT_LENGTH, TIME } from './fields';

/** The pieces of the OpenAPI schemas that agent runs and workflow runs share. */

/** The latest run of an agent or a workflow, beside `lastRun` (which stays the time, as SPEC.md has it). */
export class LatestRunSchema {
  @ApiProperty({ type: String, maxLength: 36, example: 'agentrun_01JDQ90A1B2C3D4E5F6G7H8J9K' })
  id: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ ...TIME, description: 'When it was queued.' })
  at: string;
}

/** The protocol session a run was asked for in, when not the HTTP API (docs/protocols.md), or the judge that asked. */
export class RunSourceSchema {
  @ApiProperty({ enum: ['mcp', 'a2a', 'scorer'] })
  protocol: string;

  @ApiPropertyOptional({ maxLength: 64, description: "`mcp`: the MCP session's id (`Mcp-Session-Id`)." })
  sessionId?: string;

  @ApiPropertyOptional({ maxLength: 64, description: '`a2a`: the A2A `contextId`, which is the thread.' })
  contextId?: string;

  @ApiPropertyOptional({
    maxLength: 40,
    description: '`scorer`: the judge scorer whose question this run answers (a judge run is never scored itself).',
  })
  scorerId?: string;
}

/** Why a run, or a step of a workflow run, failed. */
export class RunErrorSchema {
  @ApiProperty({ maxLength: 64, example: 'provider_error' })
  code: string;

  @ApiProperty({ description: "Why, in the provider's or tool's words where they gave one (secrets taken out)." })
  message: string;

  @ApiPropertyOptional({ description: "The provider's HTTP status, for provider errors." })
  status?: number;

  @ApiPropertyOptional({
    type: 'array',
    maxItems: LIST_ITEMS,
    items: {
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: TEXT_LENGTH },
        message: { type: 'string', maxLength: TEXT_LENGTH },
      },
      required: ['path', 'message'],
    },
    description: 'For `output_invalid`: where the answer does not match `outputSchema` (JSON Pointers) and why.',
  })
  errors?: Array<{ path: string; message: string }>;
}
