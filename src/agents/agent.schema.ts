import { GuardrailVerdictSchema, GuardrailsSchema } from './guardrails.schema';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { CURSOR, LIST_ITEMS, NAME_LENGTH, PAGE_ITEMS, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';
import { LatestRunSchema, RunErrorSchema } from '../http/openapi/run.schema';

/** The shapes the agent routes answer with, for the OpenAPI document. */

const TOOL_IDS = { type: 'array', maxItems: LIST_ITEMS, items: { type: 'string', maxLength: NAME_LENGTH } } as const;

export class AgentMemorySchema {
  @ApiProperty({ minimum: 0, maximum: 1000, example: 50, description: "The thread's last messages a run sees." })
  maxMessages: number;
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
}

export class AgentListSchema {
  @ApiProperty({ type: [AgentListItemSchema], maxItems: PAGE_ITEMS })
  agents: AgentListItemSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}

export class UsageSchema {
  @ApiProperty()
  inputTokens: number;

  @ApiProperty()
  outputTokens: number;

  @ApiPropertyOptional({
    description:
      "What the tokens cost in US dollars, when the run's model has a price (built in, or `MODEL_PRICES_FILE`).",
    example: 0.00042,
  })
  costUsd?: number;
}

export class ModelAttemptSchema {
  @ApiProperty({ maxLength: NAME_LENGTH, example: 'openai/gpt-4o-mini' })
  model: string;

  @ApiProperty({ type: UsageSchema, description: 'The tokens its calls reported, priced at this model.' })
  usage: UsageSchema;

  @ApiPropertyOptional({ type: RunErrorSchema, description: 'Why the run left this model (or failed on it).' })
  error?: RunErrorSchema;
}

export class ToolCallSchema {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'current_time' })
  tool: string;

  @ApiProperty({ description: 'What the model passed to the tool.' })
  input: unknown;

  @ApiPropertyOptional({ description: 'What the tool answered.' })
  output?: unknown;

  @ApiPropertyOptional({ description: 'Why the tool failed.' })
  error?: string;

  @ApiProperty(TIME)
  startedAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  endedAt: string | null;
}

export class PendingApprovalSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  toolCallId: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'http_get' })
  tool: string;

  @ApiProperty({ description: 'The arguments the model passed.' })
  args: unknown;

  @ApiProperty(TIME)
  requestedAt: string;
}

export class AgentRunSchema {
  @ApiProperty(idField('agentrun', 'agentrun_01JDQ90A1B2C3D4E5F6G7H8J9K'))
  id: string;

  @ApiProperty(idField('agent'))
  agentId: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  model: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The version of the agent the run ran.' })
  agentVersion: number | null;

  @ApiProperty({ maxLength: TEXT_LENGTH })
  task: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  context: Record<string, unknown>;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      "The JSON Schema the answer must match (the run's own, else its agent's when it started); null: free text.",
  })
  outputSchema: Record<string, unknown> | null;

  @ApiProperty({
    nullable: true,
    additionalProperties: true,
    description: 'The answer as a JSON object, valid against `outputSchema`; null without a schema or before the end.',
  })
  outputObject: unknown;

  @ApiProperty({ type: [ToolCallSchema] })
  toolCalls: ToolCallSchema[];

  @ApiProperty({
    type: [PendingApprovalSchema],
    maxItems: LIST_ITEMS,
    description: 'While `waiting`: the tool calls that wait for a decision (POST …/approvals).',
  })
  pendingApprovals: PendingApprovalSchema[];

  @ApiProperty({ type: UsageSchema, nullable: true })
  usage: UsageSchema | null;

  @ApiProperty({ description: 'HTTP requests made to the model provider, retries included.' })
  attempts: number;

  @ApiProperty({
    type: [ModelAttemptSchema],
    maxItems: 6,
    description:
      'When the run went on to a fallback model: each model it called, in order, with its tokens and why it was left. Empty when the run used its model alone.',
  })
  modelAttempts: ModelAttemptSchema[];

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: NAME_LENGTH,
    description:
      'The model whose answer is the output: `model`, or the fallback that answered; null until it succeeds.',
  })
  answeredModel: string | null;

  @ApiProperty({
    type: [GuardrailVerdictSchema],
    maxItems: 1000,
    description: "Every verdict of the agent's guardrails on this run: the task, the answer, each tool result.",
  })
  guardrails: GuardrailVerdictSchema[];

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ type: 'array', maxItems: LIST_ITEMS, items: { type: 'string', maxLength: 2 * NAME_LENGTH } })
  warnings: string[];

  @ApiProperty({ ...idField('wfrun'), nullable: true })
  workflowRunId: string | null;

  @ApiProperty({ type: Number, nullable: true })
  stepIndex: number | null;

  @ApiProperty({
    ...idField('thread'),
    nullable: true,
    description: 'The thread whose conversation the run continues.',
  })
  threadId: string | null;

  @ApiProperty({
    ...idField('agentrun'),
    nullable: true,
    description: 'The run this one replays (POST …/runs/{runId}/replay); null for a run of its own.',
  })
  replayOf: string | null;

  @ApiProperty()
  cancelRequested: boolean;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  startedAt: string | null;

  @ApiProperty({ ...TIME, nullable: true })
  endedAt: string | null;
}

export class AgentRunListSchema {
  @ApiProperty({ type: [AgentRunSchema], maxItems: PAGE_ITEMS })
  runs: AgentRunSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
