import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { RunErrorSchema } from '../http/openapi/run.schema';
import { LIST_ITEMS, NAME_LENGTH, RUN_ID, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';
import { ITEM_ERROR_POLICIES, STEP_CONTEXT_OPTIONS } from './workflow/workflow.state';
import { StepRetryDto } from './create-workflow/step.dto';
import { SleepDto, WaitDto } from './create-workflow/waiting-steps.dto';
import { MapDto, StepRepeatDto } from './create-workflow/loop-steps.dto';
import { SKIP_REASONS } from './workflow-run/workflow-run.state';
import { WHEN } from './workflow.schema';

/** The shape of one step of a workflow run, with its attempts, its wait and its map items, for the OpenAPI document. */

/** The most items a map step may have (WORKFLOW_MAX_MAP_ITEMS at its highest). */
const MAX_MAP_ITEMS = 10_000;

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

export class AwaitingSchema {
  @ApiProperty({ maxLength: 200, description: "The signal's name." })
  signal: string;

  @ApiProperty({ type: String, maxLength: 200, nullable: true, description: 'Its key, filled in; null: any key.' })
  key: string | null;

  @ApiProperty({ ...TIME, nullable: true, description: 'When the wait fails with signal_timeout; null: never.' })
  timeoutAt: string | null;

  @ApiPropertyOptional({
    minimum: 2,
    description: "The wait's attempt, after a time-out its retry allows; absent for the first.",
  })
  attempt?: number;

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
