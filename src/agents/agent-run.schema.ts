import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import {
  CURSOR,
  JSON_VALUE,
  LIST_ITEMS,
  NAME_LENGTH,
  PAGE_ITEMS,
  TEXT_LENGTH,
  FORGETTABLE_TEXT,
  TIME,
  idField,
} from '../http/openapi/fields';
import { RunErrorSchema, RunSourceSchema } from '../http/openapi/run.schema';
import { GuardrailVerdictSchema } from './guardrails.schema';
import { ChildRunSchema, RunHandoffSchema, RunTreeSchema, WaitingOnSchema } from './run-tree.schema';
import { UsageSchema } from '../http/openapi/usage.schema';
import { ModelAttemptSchema, RecalledItemSchema, RunScoreSchema, RunTrialSchema } from './agent-run-parts.schema';
/** Content whose subject was forgotten. */
type Forgotten = { forgotten: true };
import { SupersededBySchema, TurnsSupersededSchema } from './thread-turn.schema';

/** The shapes the agent run routes answer with, for the OpenAPI document. */

export class ToolCallSchema {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: 'current_time' })
  tool: string;

  @ApiProperty({ ...JSON_VALUE, description: 'What the model passed to the tool.' })
  input: unknown;

  @ApiPropertyOptional({
    ...JSON_VALUE,
    description: "What the tool answered (a child run's: its answer, or its `outputObject`).",
  })
  output?: unknown;

  @ApiPropertyOptional({ description: 'Why the tool failed.' })
  error?: string;

  @ApiPropertyOptional({
    description:
      "Only in an experiment's recorded trial: true when the result is the one the recorded run got, false when the tool ran (no recorded call matched).",
  })
  replayed?: boolean;

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

  @ApiProperty({
    ...idField('agentrun'),
    description:
      "The run whose call this is: this run, or one of its descendants (decide it through that run's approvals route).",
  })
  runId: string;

  @ApiProperty({ ...idField('agent'), description: 'The agent of the run whose call this is.' })
  agentId: string;
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

  @ApiProperty({
    ...FORGETTABLE_TEXT(TEXT_LENGTH),
    description: 'The task; `{"forgotten": true}` once its subject is.',
  })
  task: string | Forgotten;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`{"forgotten": true}` once its subject is.',
  })
  context: Record<string, unknown>;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ ...FORGETTABLE_TEXT(16_000_000), nullable: true })
  output: string | Forgotten | null;

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
    description:
      "While `waiting`: the tool calls that wait for a decision (POST …/approvals), its descendants' included (each names its run).",
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

  @ApiProperty({
    type: RunSourceSchema,
    nullable: true,
    description: 'The MCP session or A2A conversation the run was asked for in; null for a run asked for over HTTP.',
  })
  source: RunSourceSchema | null;

  @ApiProperty({
    ...idField('experiment'),
    nullable: true,
    description: 'The experiment whose dataset item the run answers; null for a run of its own.',
  })
  experimentId: string | null;

  @ApiProperty({
    type: RunTrialSchema,
    nullable: true,
    description: 'How the experiment ran its item (its version is `agentVersion`); null for a run of its own.',
  })
  trial: RunTrialSchema | null;

  @ApiProperty({
    type: [RunScoreSchema],
    maxItems: 10,
    description: "Its live scores (its agent's `scorers`, sampled), recorded after it succeeded; [] when none.",
  })
  scores: RunScoreSchema[];

  @ApiProperty({
    ...idField('agentrun'),
    nullable: true,
    description: "The run whose call of this run's agent started it; null for a run of its own.",
  })
  parentRunId: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: NAME_LENGTH, description: 'That call.' })
  parentToolCallId: string | null;

  @ApiProperty({ minimum: 0, description: 'How far down its tree the run is: 0 for a run of its own.' })
  depth: number;

  @ApiProperty({
    type: [ChildRunSchema],
    maxItems: LIST_ITEMS,
    description: 'The runs its calls of other agents (`agent:<name>` tools) started, in order.',
  })
  children: ChildRunSchema[];

  @ApiProperty({
    type: [WaitingOnSchema],
    maxItems: LIST_ITEMS,
    description: 'While `waiting`: the children it waits for; it goes on once every one has ended.',
  })
  waitingOn: WaitingOnSchema[];

  @ApiProperty({
    type: UsageSchema,
    nullable: true,
    description: '`usage` and that of every descendant that has ended, cost included.',
  })
  totalUsage: UsageSchema | null;

  @ApiProperty({
    type: [RunHandoffSchema],
    maxItems: 100,
    description: 'Each time the conversation was handed to another agent (`transfer_to_<name>`), in order.',
  })
  handoffs: RunHandoffSchema[];

  @ApiProperty({
    ...idField('agent'),
    nullable: true,
    description:
      'The agent whose answer is the output: `agentId`, or after handoffs the last agent; null until it succeeds.',
  })
  answeredBy: string | null;

  @ApiProperty({
    ...idField('agent'),
    nullable: true,
    description: "A thread's turn that began with another agent than the thread's (the one that answered before).",
  })
  startAgentId: string | null;

  @ApiProperty({
    type: TurnsSupersededSchema,
    nullable: true,
    description: "A thread's turn sent with `multitask` `interrupt` or `rollback`: the open turns it cancelled.",
  })
  multitask: TurnsSupersededSchema | null;

  @ApiProperty({
    type: SupersededBySchema,
    nullable: true,
    description: 'Cancelled by a later turn of its thread, and how; null for the others.',
  })
  supersededBy: SupersededBySchema | null;

  @ApiProperty({
    type: [RecalledItemSchema],
    nullable: true,
    maxItems: 20,
    description: "The memory items it was given before it began (its agent's `memory.recall`); null: none looked for.",
  })
  recalled: RecalledItemSchema[] | null;

  @ApiPropertyOptional({
    type: RunTreeSchema,
    description: 'With `?include=tree`: the run and all its descendants, each with its status and usage.',
  })
  tree?: RunTreeSchema;

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
