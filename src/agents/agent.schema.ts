import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';

/** The shapes the agent routes answer with, for the OpenAPI document. */

export class AgentSummarySchema {
  @ApiProperty({ example: 'agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J' })
  id: string;

  @ApiProperty({ example: 'researcher' })
  name: string;

  @ApiProperty({ enum: ['active', 'archived'] })
  status: string;

  @ApiProperty({ example: 'openai/gpt-4o-mini' })
  model: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AgentListItemSchema extends AgentSummarySchema {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When its latest run was queued.' })
  lastRun: string | null;
}

export class AgentSchema extends AgentSummarySchema {
  @ApiProperty()
  instructions: string;

  @ApiProperty({ type: [String], example: ['current_time'] })
  tools: string[];

  @ApiProperty({ minimum: 1, maximum: 100, example: 10 })
  maxSteps: number;

  @ApiProperty({ example: 1, description: 'Counts the changes, from 1.' })
  version: number;
}

/** A JSON Merge Patch of an agent: the fields to change; null puts a default back. */
export class AgentPatchSchema {
  @ApiPropertyOptional({ maxLength: 200 })
  name?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  model?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  instructions?: string | null;

  @ApiPropertyOptional({ type: [String], nullable: true })
  tools?: string[] | null;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 100, nullable: true })
  maxSteps?: number | null;
}

export class AgentListSchema {
  @ApiProperty({ type: [AgentListItemSchema] })
  agents: AgentListItemSchema[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}

export class UsageSchema {
  @ApiProperty()
  inputTokens: number;

  @ApiProperty()
  outputTokens: number;
}

export class RunErrorSchema {
  @ApiProperty({ example: 'provider_error' })
  code: string;

  @ApiProperty()
  message: string;

  @ApiPropertyOptional({ description: "The provider's HTTP status, for provider errors." })
  status?: number;
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

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;
}

export class AgentRunSchema {
  @ApiProperty({ example: 'agentrun_01JDQ90A1B2C3D4E5F6G7H8J9K' })
  id: string;

  @ApiProperty()
  agentId: string;

  @ApiProperty()
  model: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The version of the agent the run ran.' })
  agentVersion: number | null;

  @ApiProperty()
  task: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  context: Record<string, unknown>;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiProperty({ type: [ToolCallSchema] })
  toolCalls: ToolCallSchema[];

  @ApiProperty({ type: UsageSchema, nullable: true })
  usage: UsageSchema | null;

  @ApiProperty({ description: 'HTTP requests made to the model provider, retries included.' })
  attempts: number;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ type: [String] })
  warnings: string[];

  @ApiProperty({ type: String, nullable: true })
  workflowRunId: string | null;

  @ApiProperty({ type: Number, nullable: true })
  stepIndex: number | null;

  @ApiProperty()
  cancelRequested: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;
}

export class AgentRunListSchema {
  @ApiProperty({ type: [AgentRunSchema] })
  runs: AgentRunSchema[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}
