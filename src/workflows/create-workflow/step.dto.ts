import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsString,
  Max,
  Min,
  ValidateIf,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { NOT_BLANK, Optional, normalizeText } from '../../http/validation';
import { STEP_ID, STEP_ID_RULE } from '../../shared/step-graph';
import { TEXT_LENGTH } from '../../http/openapi/fields';
import {
  ITEM_ERROR_POLICIES,
  ItemErrorPolicy,
  STEP_CONTEXT_OPTIONS,
  StepContextOption,
  WorkflowStep,
} from '../workflow/workflow.state';
import { SleepDto, WaitDto } from './waiting-steps.dto';
import { MapDto, StepRepeatDto } from './loop-steps.dto';

/**
 * A step is an agent step (`agent` and `action`; with `map`, once per item of a list), an approval step (`approval`,
 * `timeoutMs`?), a wait step (`wait`), a sleep step (`sleep`) or a workflow step (`workflow`, `input`?).
 */
const isAgentKind = (step: object) => {
  const { approval, wait, sleep, workflow } = step as Record<string, unknown>;
  return approval === undefined && wait === undefined && sleep === undefined && workflow === undefined;
};

/** The wait before a step's first retry when its `retry` names none. */
const DEFAULT_BACKOFF_MS = 1000;

/** A step's retries: attempts in all (1: no retry), and the wait before each retry, doubled each time. */
export class StepRetryDto {
  @ApiProperty({ minimum: 1, maximum: 10, example: 3, description: 'Attempts in all, the first one included.' })
  @Max(10)
  @Min(1)
  @IsInt({ message: 'attempts must be an integer' })
  @IsDefined({ message: 'attempts is required' })
  attempts: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 3_600_000,
    example: 1000,
    description:
      "The wait before the first retry, in ms. Default: 1000. A wait step's retry waits again at once, without it.",
  })
  @Max(3_600_000)
  @Min(0)
  @IsInt({ message: 'backoffMs must be an integer' })
  @Optional()
  backoffMs?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 3_600_000,
    description: 'The longest wait: each retry waits twice as long as the one before, up to this. Default: no cap.',
  })
  @Max(3_600_000)
  @Min(0)
  @IsInt({ message: 'maxBackoffMs must be an integer' })
  @Optional()
  maxBackoffMs?: number;
}

export class StepDto {
  @ApiPropertyOptional({
    maxLength: 64,
    pattern: STEP_ID.source,
    example: 'research',
    description: 'Unique in the workflow. Default: the step\'s position ("0", "1", …).',
  })
  @Matches(STEP_ID, { message: STEP_ID_RULE })
  @IsString()
  @Optional()
  id?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: 100,
    example: ['research'],
    description:
      'The steps this one waits for, by id (or position). Default: the step before it. Steps whose needs are met run at the same time.',
  })
  @MaxLength(64, { each: true })
  @IsString({ each: true, message: 'each of needs must be a step id' })
  @ArrayMaxSize(100)
  @IsArray({ message: 'needs must be an array of step ids' })
  @Optional()
  needs?: string[];

  @ApiPropertyOptional({
    description:
      'A JSON Logic rule (jsonlogic.com) over `{input, steps: {<id>: {output, outputObject}}}`; false: the step is skipped, and so are steps that need only skipped steps.',
    example: { '==': [{ var: 'steps.triage.output' }, 'urgent'] },
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'boolean' }],
  })
  @Optional()
  when?: Record<string, unknown> | boolean;

  @ApiPropertyOptional({ type: StepRetryDto, description: 'An agent step: its retries. Default: none.' })
  @ValidateNested()
  @IsObject({ message: 'retry must be an object' })
  @Optional()
  @Type(() => StepRetryDto)
  retry?: StepRetryDto;

  @ApiPropertyOptional({ maxLength: 200, example: 'researcher', description: 'An agent step: the name of an agent.' })
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'agent must not be empty' })
  @IsString()
  @IsDefined({ message: 'agent is required (or approval, wait, sleep or workflow, for the other kinds of step)' })
  @ValidateIf(isAgentKind)
  @Transform(normalizeText)
  agent?: string;

  @ApiPropertyOptional({
    maxLength: TEXT_LENGTH,
    example: 'List three facts about {{input.topic}}',
    description:
      'An agent step: the task, with `{{input.<path>}}` and `{{steps.<id or position>.output}}` filled in (a step named must be among the needs, directly or through them).',
  })
  @MaxLength(TEXT_LENGTH)
  @Matches(NOT_BLANK, { message: 'action must not be empty' })
  @IsString()
  @IsDefined({ message: 'action is required' })
  @ValidateIf(isAgentKind)
  action?: string;

  @ApiPropertyOptional({
    enum: STEP_CONTEXT_OPTIONS,
    description:
      "An agent step: what the agent gets besides the task. Default: nothing (the task holds what the action names); `input`: the run input; `steps`: the earlier steps' outputs; `all`: both, with the workflow and run ids.",
  })
  @IsIn(STEP_CONTEXT_OPTIONS, { message: `context must be one of ${STEP_CONTEXT_OPTIONS.join(', ')}` })
  @Optional()
  context?: StepContextOption;

  @ApiPropertyOptional({
    type: StepRepeatDto,
    description:
      "An agent step: runs again, at once, until `until` holds or it has run `max` times (then repeat_exhausted), with `{{previous.output}}` (the last iteration's answer; empty in the first) and `{{iteration}}` (from 1) in its action. Each iteration is one of its `attempts`.",
  })
  @ValidateNested()
  @IsObject({ message: 'repeat must be an object' })
  @Optional()
  @Type(() => StepRepeatDto)
  repeat?: StepRepeatDto;

  @ApiPropertyOptional({
    type: MapDto,
    description:
      "A map step: an agent step whose agent runs once per item of a list, with `{{item}}`, `{{item.<path>}}` and `{{index}}` in its action. Its `outputObject` is the items' outputs in order (each item's `outputObject`, or its text).",
  })
  @ValidateNested()
  @IsObject({ message: 'map must be an object' })
  @Optional()
  @Type(() => MapDto)
  map?: MapDto;

  @ApiPropertyOptional({
    enum: ITEM_ERROR_POLICIES,
    description:
      'A map step: what a failed item does. `fail` (default): the step fails with map_item_failed (the items still running are cancelled); `skip`: the others go on, and the failed item leaves null in its place.',
  })
  @IsIn(ITEM_ERROR_POLICIES, { message: `onItemError must be one of ${ITEM_ERROR_POLICIES.join(', ')}` })
  @Optional()
  onItemError?: ItemErrorPolicy;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'summarise',
    description:
      "A workflow step: the name of the workflow it runs as a child run (found when the step starts), waiting for it; the child's output is the step's. Not the workflow's own name.",
  })
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'workflow must not be empty' })
  @IsString({ message: 'workflow must be a workflow name' })
  @Optional()
  workflow?: string;

  /** Free-form JSON, whose strings are templates. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { text: '{{steps.fetch.output}}' },
    description:
      "A workflow step: the child run's input; each string in it is a template over the input and the earlier steps, as an action is. Default: {}.",
  })
  @FreeFormObject({ message: 'input must be an object' })
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    maxLength: 2000,
    example: 'Publish this digest?',
    description: 'An approval step: the text shown to the approver. The run waits here for POST …/approvals.',
  })
  @MaxLength(2000)
  @Matches(NOT_BLANK, { message: 'approval must not be empty' })
  @IsString()
  @Optional()
  approval?: string;

  @ApiPropertyOptional({
    type: WaitDto,
    description: 'A wait step: the run waits here for a signal (POST /v1/signals), holding nothing meanwhile.',
  })
  @ValidateNested()
  @IsObject({ message: 'wait must be an object' })
  @Optional()
  @Type(() => WaitDto)
  wait?: WaitDto;

  @ApiPropertyOptional({
    type: SleepDto,
    description:
      'A sleep step: the run sleeps here (a durable timer, nothing held meanwhile); its output is when it woke.',
  })
  @ValidateNested()
  @IsObject({ message: 'sleep must be an object' })
  @Optional()
  @Type(() => SleepDto)
  sleep?: SleepDto;

  @ApiPropertyOptional({
    minimum: 1000,
    maximum: 31_536_000_000,
    description:
      'An approval step: how long it may wait, in ms, before the run fails with approval_timeout; an agent step: how long all its attempts may take together, before it fails with step_timeout. Default: no limit.',
  })
  @Max(31_536_000_000)
  @Min(1000)
  @IsInt({ message: 'timeoutMs must be an integer' })
  @Optional()
  timeoutMs?: number;
}

/** The step as the domain has it: an agent, approval, wait or sleep step, nothing else. */
export function toWorkflowStep(dto: StepDto): WorkflowStep {
  const { agent, action, context, approval, timeoutMs, id, needs, when, retry, wait, sleep, map, onItemError, repeat } =
    dto;
  const { workflow, input } = dto;
  const placement = { ...(id !== undefined && { id }), ...(needs && { needs }), ...(when !== undefined && { when }) };
  if (approval !== undefined) return { approval, ...placement, ...(timeoutMs !== undefined && { timeoutMs }) };
  if (wait !== undefined) {
    const { signal, key, timeoutMs: waitMs } = wait;
    return {
      wait: { signal, ...(key !== undefined && { key }), ...(waitMs !== undefined && { timeoutMs: waitMs }) },
      ...placement,
      ...retriesOf(retry),
    };
  }
  if (sleep !== undefined)
    return { sleep: sleep.ms !== undefined ? { ms: sleep.ms } : { until: sleep.until! }, ...placement };
  if (workflow !== undefined) {
    return {
      workflow,
      ...(input !== undefined && { input }),
      ...placement,
      ...retriesOf(retry),
      ...(timeoutMs !== undefined && { timeoutMs }),
    };
  }
  const retries = retriesOf(retry);
  return {
    agent: agent!,
    action: action!,
    ...(context && { context }),
    ...placement,
    ...retries,
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(map && { map: { over: map.over, ...(map.concurrency !== undefined && { concurrency: map.concurrency }) } }),
    ...(onItemError !== undefined && { onItemError }),
    ...(repeat && { repeat: { until: repeat.until, max: repeat.max } }),
  };
}

function retriesOf(retry: StepRetryDto | undefined) {
  if (!retry) return undefined;
  const { attempts, backoffMs = DEFAULT_BACKOFF_MS, maxBackoffMs } = retry;
  return { retry: { attempts, backoffMs, ...(maxBackoffMs !== undefined && { maxBackoffMs }) } };
}
