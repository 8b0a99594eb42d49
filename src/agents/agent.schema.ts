import { GuardrailsSchema } from './guardrails.schema';
import type { HandoffSpec } from './handoffs';
import { HANDOFFS_FIELD } from './handoffs.schema';
import { MAX_LIVE_SCORERS } from './live-scorers';
import { LiveScorerDto } from './create-agent/create-agent.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR, LIST_ITEMS, NAME_LENGTH, PAGE_ITEMS, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';
import { LatestRunSchema } from '../http/openapi/run.schema';

/** The shapes the agent routes answer with, for the OpenAPI document. */

const TOOL_IDS = { type: 'array', maxItems: LIST_ITEMS, items: { type: 'string', maxLength: NAME_LENGTH } } as const;

export class AgentRecallSchema {
  @ApiProperty({ minimum: 1, maximum: 20, example: 5, description: 'At most this many items.' })
  limit: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1000, description: 'Only items scoring at least this (BM25).' })
  minScore?: number;
}

export class AgentMemorySchema {
  @ApiProperty({ minimum: 0, maximum: 1000, example: 50, description: "The thread's last messages a run sees." })
  maxMessages: number;

  @ApiPropertyOptional({
    maxLength: 500,
    example: 'users/{{context.userId}}',
    description: "The memory namespace of its runs: a template over the run's context.",
  })
  namespace?: string;

  @ApiPropertyOptional({
    type: () => AgentRecallSchema,
    description: 'Before each run, the items of the namespace that best match the task are given to the model.',
  })
  recall?: AgentRecallSchema;

  @ApiPropertyOptional({ description: 'The model gets `remember`, `recall` and `forget` tools on the namespace.' })
  tools?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    properties: { schema: { type: 'object', additionalProperties: true } },
    description: 'On a thread: one JSON document the model sees at the start of every turn and updates.',
  })
  working?: { schema?: Record<string, unknown> };

  @ApiPropertyOptional({
    description: 'On a thread: messages that fall out of the window are folded into a summary the model sees.',
  })
  summarize?: boolean;
}

export class AgentSummarySchema {
  @ApiProperty(idField('agent', 'agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J'))
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'researcher' })
  name: string;

  @ApiProperty({ enum: ['active', 'archived'] })
  status: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'openai/gpt-4o-mini' })
  model: string;

  @ApiProperty(TIME)
  createdAt: string;
}

export class AgentListItemSchema extends AgentSummarySchema {
  @ApiProperty({ ...TIME, nullable: true, description: 'When its latest run was queued.' })
  lastRun: string | null;

  @ApiProperty({
    type: LatestRunSchema,
    nullable: true,
    description: 'Its latest run, by a request or a workflow step.',
  })
  latestRun: LatestRunSchema | null;
}

export class AgentSchema extends AgentSummarySchema {
  @ApiProperty({ maxLength: TEXT_LENGTH })
  instructions: string;

  @ApiProperty({ ...TOOL_IDS, example: ['current_time'] })
  tools: string[];

  @ApiProperty({ minimum: 1, maximum: 100, example: 10 })
  maxSteps: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The JSON Schema the final answer must match; null: free text.',
  })
  outputSchema: Record<string, unknown> | null;

  @ApiProperty({ type: () => AgentMemorySchema })
  memory: AgentMemorySchema;

  @ApiProperty({
    ...TOOL_IDS,
    example: ['http_get'],
    description: "Tool ids, or `mcp:<server>/*`, whose calls wait for a person's approval.",
  })
  approvalRequired: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: NAME_LENGTH },
    maxItems: 5,
    example: ['anthropic/claude-3-5-haiku-latest'],
    description: "`provider/model`s a model call is made again on, in order, when it fails by the provider's fault.",
  })
  fallbackModels: string[];

  @ApiProperty({ maxLength: 1000, description: 'What the agent is for; "" when not given.' })
  description: string;

  @ApiProperty({ type: () => GuardrailsSchema, description: 'Checks on the task, the answer and each tool result.' })
  guardrails: GuardrailsSchema;

  @ApiProperty({ ...HANDOFFS_FIELD, description: 'Agents it may hand the conversation to; [] when none.' })
  handoffs: HandoffSpec[];

  @ApiProperty({
    type: () => [LiveScorerDto],
    maxItems: MAX_LIVE_SCORERS,
    description: 'Scorers its succeeded runs are scored by after they end, each on a share of them; [] when none.',
  })
  scorers: LiveScorerDto[];

  @ApiProperty({ example: 1, description: 'Counts the changes, from 1.' })
  version: number;
}

/** A JSON Merge Patch of an agent: the fields to change; null puts a default back. */
export class AgentPatchSchema {
  @ApiPropertyOptional({ maxLength: NAME_LENGTH })
  name?: string;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH })
  model?: string;

  @ApiPropertyOptional({ type: String, maxLength: TEXT_LENGTH, nullable: true })
  instructions?: string | null;

  @ApiPropertyOptional({ ...TOOL_IDS, nullable: true })
  tools?: string[] | null;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 100, nullable: true })
  maxSteps?: number | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  outputSchema?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: () => AgentMemorySchema, nullable: true })
  memory?: AgentMemorySchema | null;

  @ApiPropertyOptional({ ...TOOL_IDS, nullable: true })
  approvalRequired?: string[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: NAME_LENGTH },
    maxItems: 5,
    nullable: true,
  })
  fallbackModels?: string[] | null;

  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true })
  description?: string | null;

  @ApiPropertyOptional({ type: () => GuardrailsSchema, nullable: true })
  guardrails?: GuardrailsSchema | null;

  @ApiPropertyOptional({ ...HANDOFFS_FIELD, nullable: true })
  handoffs?: HandoffSpec[] | null;

  @ApiPropertyOptional({ type: () => [LiveScorerDto], maxItems: MAX_LIVE_SCORERS, nullable: true })
  scorers?: LiveScorerDto[] | null;
}

export class AgentListSchema {
  @ApiProperty({ type: [AgentListItemSchema], maxItems: PAGE_ITEMS })
  agents: AgentListItemSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}
