import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { RunErrorSchema } from '../agents/agent.schema';

/** The shapes the workflow routes answer with, for the OpenAPI document. */

export class WorkflowTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({ example: '0 9 * * 1-5', description: 'For schedules: five cron fields.' })
  cron?: string;

  @ApiPropertyOptional({ example: 'Europe/Berlin', description: 'For schedules: an IANA time zone.' })
  timezone?: string;
}

export class WorkflowStepSchema {
  @ApiProperty({ example: 'researcher', description: 'The name of an agent.' })
  agent: string;

  @ApiProperty({ example: 'List three facts about {{input.topic}}' })
  action: string;
}

export class WorkflowSummarySchema {
  @ApiProperty({ example: 'wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['active', 'paused', 'archived'] })
  status: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastRun: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextRunAt: string | null;

  @ApiProperty({ type: WorkflowTriggerSchema })
  trigger: WorkflowTriggerSchema;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class WorkflowSchema extends WorkflowSummarySchema {
  @ApiProperty({ type: [WorkflowStepSchema] })
  steps: WorkflowStepSchema[];

  @ApiProperty({ example: 1, description: 'Counts the changes, from 1.' })
  version: number;
}

/** A JSON Merge Patch of a workflow: the fields to change; `trigger` merges field by field, `steps` is replaced. */
export class WorkflowPatchSchema {
  @ApiPropertyOptional({ maxLength: 200 })
  name?: string;

  @ApiPropertyOptional({ type: WorkflowTriggerSchema, nullable: true })
  trigger?: WorkflowTriggerSchema | null;

  @ApiPropertyOptional({ type: [WorkflowStepSchema] })
  steps?: WorkflowStepSchema[];
}

export class WorkflowListSchema {
  @ApiProperty({ type: [WorkflowSummarySchema] })
  workflows: WorkflowSummarySchema[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

export class RunTriggerSchema {
  @ApiProperty({ enum: ['manual', 'schedule'] })
  type: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'The schedule tick the run stands for.' })
  scheduledFor?: string;
}

export class WorkflowRunStepSchema {
  @ApiProperty()
  index: number;

  @ApiProperty()
  agent: string;

  @ApiProperty()
  action: string;

  @ApiProperty({ enum: ['pending', ...RUN_STATUSES, 'skipped'] })
  status: string;

  @ApiProperty({ type: String, nullable: true })
  agentRunId: string | null;

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;
}

export class WorkflowRunSchema {
  @ApiProperty({ example: 'wfrun_01JDQA3B4C5D6E7F8G9H0J1K2M' })
  id: string;

  @ApiProperty()
  workflowId: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The version of the workflow the run ran.' })
  workflowVersion: number | null;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  input: Record<string, unknown>;

  @ApiProperty({ type: RunTriggerSchema })
  trigger: RunTriggerSchema;

  @ApiProperty({ type: [WorkflowRunStepSchema] })
  steps: WorkflowRunStepSchema[];

  @ApiProperty({ type: String, nullable: true })
  output: string | null;

  @ApiProperty({ type: RunErrorSchema, nullable: true })
  error: RunErrorSchema | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;
}

export class WorkflowRunListSchema {
  @ApiProperty({ type: [WorkflowRunSchema] })
  runs: WorkflowRunSchema[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}
