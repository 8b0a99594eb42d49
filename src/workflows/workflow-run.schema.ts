import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { RunErrorSchema, RunSourceSchema } from '../http/openapi/run.schema';
import {
  CURSOR,
  LIST_ITEMS,
  NAME_LENGTH,
  PAGE_ITEMS,
  RUN_ID,
  TEXT_LENGTH,
  TIME,
  idField,
} from '../http/openapi/fields';
import { ITEM_ERROR_POLICIES, STEP_CONTEXT_OPTIONS } from './workflow/workflow.state';
import { StepRetryDto } from './create-workflow/step.dto';
import { SleepDto, WaitDto } from './create-workflow/waiting-steps.dto';
import { MapDto, StepRepeatDto } from './create-workflow/loop-steps.dto';

/** The most items a map step may have (WORKFLOW_MAX_MAP_ITEMS at its highest). */
const MAX_MAP_ITEMS = 10_000;
import { SKIP_REASONS } from './workflow-run/workflow-run.state';
import { WHEN } from './workflow.schema';

/** The shapes the workflow run routes answer with, for the OpenAPI document. */

export class RunTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({ ...TIME, description: 'The schedule tick the run stands for.' })
  scheduledFor?: string;
}

export class StepAttemptSchema {
  @ApiProperty({ ...RUN_ID, description: "The attempt's agent run, or a workflow step's child run." })
  runId: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiPropertyOptional({ type: String, description: "A repeating step's iteration that succeeded: its answer." })
  output?: string;
}

export class ReplayOfSchema {
  @ApiProperty(idField('wfrun'))
  runId: string;

  @ApiProperty({ maxLength: 64, description: 'The step it ran again from.' })
  fromStep: string;
}

export class AwaitingSchema {
  @ApiProperty({ maxLength: 200, description: "The signal's name." })
  signal: string;

  @ApiProperty({ type: String, maxLength: 200, nullable: true, description: 'Its key, filled in; null: any key.' })
  key: string | null;

  @ApiProperty({ ...TIME, nullable: true, description: 'When the wait fails with signal_timeout; null: never.' })
  timeoutAt: string | null;

  @ApiPropertyOptional({ ...idField('signal'), description: 'The signal that ended the wait.' })
  signalId?: string;
}

export class MapItemSchema {
  @ApiProperty({ description: "The item's position in the list." })
  index: number;

  @ApiProperty({
    enum: ['pending', ...RUN_STATUSES, 'skipped'],
    description: '`skipped`: the step ended before the item started.',
  })
  status: string;

  @ApiProperty({ ...idField('agentrun'), nullable: true, description: "The item's agent run; null until it starts." })
  agentRunId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The action filled in for the item.' })
  task: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: TEXT_LENGTH },
    maxItems: LIST_ITEMS,
    description: 'The placeholders whose path led nowhere for this item. Absent: none.',
  })
  missing?: string[];

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "The item's structured answer." })
  outputObject?: unknown;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;
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
    maxItems: 100,
    description: "An agent step: each attempt (a repeating step's iterations), an agent run of its own, in order.",
  })
  attempts?: StepAttemptSchema[];

  @ApiPropertyOptional({ description: 'A replay took its output from the run it replays: no model call.' })
  reused?: boolean;

  @ApiProperty({ type: String, maxLength: NAME_LENGTH, nullable: true, description: 'null but for an agent step.' })
  agent: string | null;

  @ApiProperty({ type: String, maxLength: TEXT_LENGTH, nullable: true, description: 'null but for an agent step.' })
  action: string | null;

  @ApiPropertyOptional({ type: MapDto, description: 'A map step: the list its agent runs over, as defined.' })
  map?: MapDto;

  @ApiPropertyOptional({ type: StepRepeatDto, description: 'A repeating step: until when, and at most how often.' })
  repeat?: StepRepeatDto;

  @ApiPropertyOptional({ enum: ITEM_ERROR_POLICIES, description: 'A map step: what a failed item does.' })
  onItemError?: string;

  @ApiPropertyOptional({
    type: [MapItemSchema],
    maxItems: MAX_MAP_ITEMS,
    description: 'A map step once it has started: each item, in the order of the list.',
  })
  items?: MapItemSchema[];

  @ApiPropertyOptional({
    maxLength: NAME_LENGTH,
    description: 'A workflow step: the name of the workflow it runs as a child run.',
  })
  workflow?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "A workflow step: its child's input as defined (templates).",
  })
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A workflow step once started: the input it gave its child run, the templates filled in.',
  })
  sentInput?: Record<string, unknown>;

  @ApiPropertyOptional({
    ...idField('wfrun'),
    nullable: true,
    description: "A workflow step: its current child run (each attempt's is in `attempts`); null until it starts.",
  })
  childRunId?: string | null;

  @ApiPropertyOptional({ maxLength: 2000, description: 'An approval step: the text shown to the approver.' })
  approval?: string;

  @ApiPropertyOptional({ description: 'An approval step: how long it may wait, in ms.' })
  timeoutMs?: number;

  @ApiPropertyOptional({ type: WaitDto, description: 'A wait step: the signal it waits for, as defined.' })
  wait?: WaitDto;

  @ApiPropertyOptional({ type: SleepDto, description: 'A sleep step, as defined.' })
  sleep?: SleepDto;

  @ApiPropertyOptional({
    type: () => AwaitingSchema,
    description: 'A wait step once it waits: what for, until when, and the signal that ended it.',
  })
  awaiting?: AwaitingSchema;

  @ApiPropertyOptional({ ...TIME, description: 'A sleep step once it sleeps: when it wakes.' })
  wakeAt?: string;

  @ApiPropertyOptional({ enum: STEP_CONTEXT_OPTIONS, description: 'Absent: the task alone.' })
  context?: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The task sent to the agent: the action with its placeholders filled in; null until the step starts.',
  })
  task: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: TEXT_LENGTH },
    maxItems: LIST_ITEMS,
    example: ['input.topc'],
    description:
      'The placeholders of the action whose path led nowhere (left empty in `task`), as written. Absent: none.',
  })
  missing?: string[];

  @ApiProperty({ enum: ['pending', ...RUN_STATUSES, 'skipped'] })
  status: string;

  @ApiPropertyOptional({
    enum: SKIP_REASONS,
    description:
      'A skipped step: `condition_false`, its `when` was false; `needs_skipped`, every step it needs was skipped. Absent from a step the run ended before reaching.',
  })
  skipReason?: string;

  @ApiProperty({ ...idField('agentrun'), nullable: true })
  agentRunId: string | null;

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {}, maxItems: MAX_MAP_ITEMS },
    ],
    description:
      "The step's structured answer (`{{steps.<n>.output.<field>}}`): its agent run's, when the agent has an `outputSchema`; a wait step's signal data; a map step's outputs, in order.",
  })
  outputObject?: unknown;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ ...TIME, nullable: true })
  startedAt: string | null;

  @ApiProperty({ ...TIME, nullable: true })
  endedAt: string | null;
}

export class WorkflowRunTrialSchema {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The merge patch of the workflow's definition the run tried, never saved; null: none.",
  })
  overrides: Record<string, unknown> | null;

  @ApiProperty({
    ...idField('wfrun'),
    nullable: true,
    description:
      "The run whose steps' tool results were given back to the same steps for the same calls (`mode: recorded`); null: tools ran.",
  })
  recordedFrom: string | null;
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

  @ApiPropertyOptional({ type: RunSourceSchema, description: 'A run asked for by an MCP client: its session.' })
  source?: RunSourceSchema;

  @ApiPropertyOptional({
    ...idField('wfrun'),
    description: 'A child run: the run whose workflow step started it (absent for the others).',
  })
  parentRunId?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'A child run: the id of the step that started it.' })
  parentStep?: string;

  @ApiPropertyOptional({
    ...idField('experiment'),
    description: "A run of an experiment's dataset item: the experiment (absent for the others).",
  })
  experimentId?: string;

  @ApiPropertyOptional({
    type: () => WorkflowRunTrialSchema,
    description: 'How the experiment ran its item (its version is `workflowVersion`); absent for the others.',
  })
  trial?: WorkflowRunTrialSchema;

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
