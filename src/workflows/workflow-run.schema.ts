import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { RunErrorSchema, RunSourceSchema } from '../http/openapi/run.schema';
import { CURSOR, LIST_ITEMS, PAGE_ITEMS, TIME, idField } from '../http/openapi/fields';
import { WorkflowRunStepSchema } from './workflow-run-step.schema';

/** The shapes the workflow run routes answer with, for the OpenAPI document. */

export class RunTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({ ...TIME, description: 'The schedule tick the run stands for.' })
  scheduledFor?: string;

  @ApiPropertyOptional({
    enum: [true],
    description: 'A tick of the past run by `POST /v1/workflows/{id}/backfill`; absent for the others.',
  })
  backfill?: true;
}

export class ReplayOfSchema {
  @ApiProperty(idField('wfrun'))
  runId: string;

  @ApiProperty({ maxLength: 64, description: 'The step it ran again from.' })
  fromStep: string;
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
