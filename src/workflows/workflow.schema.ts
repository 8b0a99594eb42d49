import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { LatestRunSchema, RunErrorSchema } from '../http/openapi/run.schema';
import { CURSOR, LIST_ITEMS, NAME_LENGTH, PAGE_ITEMS, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';
import { STEP_CONTEXT_OPTIONS } from './workflow/workflow.state';
import { CRON_LENGTH, MAX_CONCURRENT_RUNS, StepRetryDto, TIMEZONE_LENGTH } from './create-workflow/create-workflow.dto';
import { OVERLAP_POLICIES } from '../domain/run-slots';

const WHEN = { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'boolean' }] };

/** The shapes the workflow routes answer with, for the OpenAPI document. */

export class WorkflowTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({
    maxLength: CRON_LENGTH,
    example: '0 9 * * 1-5',
    description: 'For schedules: five cron fields.',
  })
  cron?: string;

  @ApiPropertyOptional({
    maxLength: TIMEZONE_LENGTH,
    example: 'Europe/Berlin',
    description: 'For schedules: an IANA time zone.',
  })
  timezone?: string;
}

/** An agent step (`agent`, `action`) or an approval step (`approval`, `timeoutMs`). */
export class WorkflowStepSchema {
  @ApiPropertyOptional({
    maxLength: 64,
    example: 'research',
    description: 'Unique in the workflow. Default: the position.',
  })
  id?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: LIST_ITEMS,
    description: 'The steps it waits for, by id. Default: the step before it.',
  })
  needs?: string[];

  @ApiPropertyOptional({ ...WHEN, description: 'A JSON Logic rule; false: the step is skipped.' })
  when?: Record<string, unknown> | boolean;

  @ApiPropertyOptional({ type: StepRetryDto, description: 'An agent step: its retries.' })
  retry?: StepRetryDto;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, example: 'researcher', description: 'The name of an agent.' })
  agent?: string;

  @ApiPropertyOptional({
    maxLength: TEXT_LENGTH,
    example: 'List three facts about {{input.topic}}',
    description:
      'An agent step: the task, with `{{input.<path>}}` and `{{steps.<n>.output}}` (steps count from 0) filled in.',
  })
  action?: string;

  @ApiPropertyOptional({
    enum: STEP_CONTEXT_OPTIONS,
    description:
      'What the agent gets besides the task: absent, nothing; `input` the run input; `steps` the earlier outputs; `all` both, with the workflow.',
  })
  context?: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'An approval step: the text shown to the approver.' })
  approval?: string;

  @ApiPropertyOptional({
    description: 'An approval step: how long it may wait, in ms; an agent step: how long all its attempts may take.',
  })
  timeoutMs?: number;
}

export class WorkflowSummarySchema {
  @ApiProperty(idField('wf', 'wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP'))
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  name: string;

  @ApiProperty({ enum: ['active', 'paused', 'archived'] })
  status: string;

  @ApiProperty({ ...TIME, nullable: true, description: 'When its latest run was triggered.' })
  lastRun: string | null;

  @ApiProperty({ type: LatestRunSchema, nullable: true, description: 'Its latest run.' })
  latestRun: LatestRunSchema | null;

  @ApiProperty({ ...TIME, nullable: true })
  nextRunAt: string | null;

  @ApiProperty({ type: WorkflowTriggerSchema })
  trigger: WorkflowTriggerSchema;

  @ApiProperty(TIME)
  createdAt: string;
}

export class WorkflowSchema extends WorkflowSummarySchema {
  @ApiProperty({ type: [WorkflowStepSchema], maxItems: LIST_ITEMS })
  steps: WorkflowStepSchema[];

  @ApiPropertyOptional({ maxLength: 64, description: "The step whose output is the run's output." })
  outputStep?: string;

  @ApiProperty({
    enum: OVERLAP_POLICIES,
    description: 'What a schedule tick does while a run is still going: `allow`, `skip` or `buffer_one`.',
  })
  overlap: string;

  @ApiProperty({
    type: Number,
    minimum: 1,
    maximum: MAX_CONCURRENT_RUNS,
    nullable: true,
    description: 'At most this many runs at once (the others wait, `queued`, in order); null: no limit.',
  })
  maxConcurrentRuns: number | null;

  @ApiProperty({ example: 1, description: 'Counts the changes, from 1.' })
  version: number;
}

/** A JSON Merge Patch of a workflow: the fields to change; `trigger` merges field by field, `steps` is replaced. */
export class WorkflowPatchSchema {
  @ApiPropertyOptional({ maxLength: NAME_LENGTH })
  name?: string;

  @ApiPropertyOptional({ type: WorkflowTriggerSchema, nullable: true })
  trigger?: WorkflowTriggerSchema | null;

  @ApiPropertyOptional({ type: [WorkflowStepSchema], maxItems: LIST_ITEMS })
  steps?: WorkflowStepSchema[];

  @ApiPropertyOptional({ type: String, maxLength: 64, nullable: true, description: 'null: the default again.' })
  outputStep?: string | null;

  @ApiPropertyOptional({ enum: OVERLAP_POLICIES, nullable: true, description: 'null: `allow`.' })
  overlap?: string | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_CONCURRENT_RUNS,
    nullable: true,
    description: 'null: no limit.',
  })
  maxConcurrentRuns?: number | null;
}

export class WorkflowListSchema {
  @ApiProperty({ type: [WorkflowSummarySchema], maxItems: PAGE_ITEMS })
  workflows: WorkflowSummarySchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

export class RunTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({ ...TIME, description: 'The schedule tick the run stands for.' })
  scheduledFor?: string;
}

export class StepAttemptSchema {
  @ApiProperty(idField('agentrun'))
  runId: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;
}

export class ReplayOfSchema {
  @ApiProperty(idField('wfrun'))
  runId: string;

  @ApiProperty({ maxLength: 64, description: 'The step it ran again from.' })
  fromStep: string;
}

export class WorkflowRunStepSchema {
  @ApiProperty()
  index: number;

  @ApiProperty({ maxLength: 64, description: 'Its id, or its position when the workflow names none.' })
  id: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: LIST_ITEMS,
    description: 'The ids of the steps it waits for.',
  })
  needs: string[];

  @ApiPropertyOptional({ ...WHEN, description: 'Its condition.' })
  when?: Record<string, unknown> | boolean;

  @ApiPropertyOptional({ type: StepRetryDto })
  retry?: StepRetryDto;

  @ApiPropertyOptional({
    type: [StepAttemptSchema],
    maxItems: 10,
    description: 'An agent step: each attempt, an agent run of its own, in order.',
  })
  attempts?: StepAttemptSchema[];

  @ApiPropertyOptional({ description: 'A replay took its output from the run it replays: no model call.' })
  reused?: boolean;

  @ApiProperty({ type: String, maxLength: NAME_LENGTH, nullable: true, description: 'null for an approval step.' })
  agent: string | null;

  @ApiProperty({ type: String, maxLength: TEXT_LENGTH, nullable: true, description: 'null for an approval step.' })
  action: string | null;

  @ApiPropertyOptional({ maxLength: 2000, description: 'An approval step: the text shown to the approver.' })
  approval?: string;

  @ApiPropertyOptional({ description: 'An approval step: how long it may wait, in ms.' })
  timeoutMs?: number;

  @ApiPropertyOptional({ enum: STEP_CONTEXT_OPTIONS, description: 'Absent: the task alone.' })
  context?: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The task sent to the agent: the action with its placeholders filled in; null until the step starts.',
  })
  task: string | null;

  @ApiProperty({ enum: ['pending', ...RUN_STATUSES, 'skipped'] })
  status: string;

  @ApiProperty({ ...idField('agentrun'), nullable: true })
  agentRunId: string | null;

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The step's structured answer, when its agent has an `outputSchema` (`{{steps.<n>.output.<field>}}`).",
  })
  outputObject?: unknown;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ ...TIME, nullable: true })
  startedAt: string | null;

  @ApiProperty({ ...TIME, nullable: true })
  endedAt: string | null;
}

export class WorkflowRunSchema {
  @ApiProperty(idField('wfrun', 'wfrun_01JDQA3B4C5D6E7F8G9H0J1K2M'))
  id: string;

  @ApiProperty(idField('wf'))
  workflowId: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The version of the workflow the run ran.' })
  workflowVersion: number | null;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  input: Record<string, unknown>;

  @ApiProperty({ type: RunTriggerSchema })
  trigger: RunTriggerSchema;

  @ApiProperty({ type: [WorkflowRunStepSchema], maxItems: LIST_ITEMS })
  steps: WorkflowRunStepSchema[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The output of `outputStep`, or of the last step by position among those that ran.',
  })
  output: string | null;

  @ApiPropertyOptional({ type: ReplayOfSchema, description: 'A replay: the run it replays, and from which step.' })
  replayOf?: ReplayOfSchema;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  startedAt: string | null;

  @ApiProperty({ ...TIME, nullable: true })
  endedAt: string | null;
}

export class WorkflowRunListSchema {
  @ApiProperty({ type: [WorkflowRunSchema], maxItems: PAGE_ITEMS })
  runs: WorkflowRunSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
