import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LatestRunSchema } from '../http/openapi/run.schema';
import { CURSOR, LIST_ITEMS, NAME_LENGTH, PAGE_ITEMS, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';
import { ITEM_ERROR_POLICIES, STEP_CONTEXT_OPTIONS } from './workflow/workflow.state';
import { INPUT_SCHEMA_FIELD, MAX_CONCURRENT_RUNS } from './create-workflow/create-workflow.dto';
import { StepRetryDto } from './create-workflow/step.dto';
import { CRON_LENGTH, TIMEZONE_LENGTH } from './create-workflow/trigger.dto';
import { SleepDto, WaitDto } from './create-workflow/waiting-steps.dto';
import { MapDto, StepRepeatDto } from './create-workflow/loop-steps.dto';
import { ConcurrencyDto } from './create-workflow/concurrency.dto';
import { OVERLAP_POLICIES } from '../domain/run-slots';

/** A step's `when`: a JSON Logic rule, or a constant. */
export const WHEN = { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'boolean' }] };

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

/** An agent step (`agent`, `action`, and `map` for a map step), a workflow step (`workflow`), an approval step (`approval`, `timeoutMs`), a wait step (`wait`) or a sleep step (`sleep`). */
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

  @ApiPropertyOptional({ type: MapDto, description: 'A map step: the list its agent runs over, once per item.' })
  map?: MapDto;

  @ApiPropertyOptional({ type: StepRepeatDto, description: 'A repeating step: until when, and at most how often.' })
  repeat?: StepRepeatDto;

  @ApiPropertyOptional({ enum: ITEM_ERROR_POLICIES, description: 'A map step: what a failed item does.' })
  onItemError?: string;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'A workflow step: the workflow it runs as a child run.' })
  workflow?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "A workflow step: the child run's input, its strings templates.",
  })
  input?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000, description: 'An approval step: the text shown to the approver.' })
  approval?: string;

  @ApiPropertyOptional({ type: WaitDto, description: 'A wait step: the signal it waits for.' })
  wait?: WaitDto;

  @ApiPropertyOptional({ type: SleepDto, description: 'A sleep step: for how long (`ms`) or until when (`until`).' })
  sleep?: SleepDto;

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

  @ApiPropertyOptional({ ...INPUT_SCHEMA_FIELD, description: "The JSON Schema a trigger's `input` must match." })
  inputSchema?: Record<string, unknown>;

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

  @ApiProperty({
    type: ConcurrencyDto,
    nullable: true,
    description: 'At most `limit` runs at once per key (a template over the input); null: no limit per key.',
  })
  concurrency: ConcurrencyDto | null;

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

  @ApiPropertyOptional({ ...INPUT_SCHEMA_FIELD, nullable: true, description: 'Replaced whole; null: none.' })
  inputSchema?: Record<string, unknown> | null;

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

  @ApiPropertyOptional({ type: ConcurrencyDto, nullable: true, description: 'Replaced whole; null: no limit per key.' })
  concurrency?: ConcurrencyDto | null;
}

export class WorkflowListSchema {
  @ApiProperty({ type: [WorkflowSummarySchema], maxItems: PAGE_ITEMS })
  workflows: WorkflowSummarySchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
