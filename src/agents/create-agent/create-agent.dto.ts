import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  ValidateNested,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NOT_BLANK, Optional, normalizeText } from '../../http/validation';
import { FreeFormObject } from '../../http/free-form-json';
import type { Guardrails } from '../guardrails';
import { HANDOFF_INPUTS, HandoffSpec, MAX_HANDOFFS } from '../handoffs';
import { HANDOFFS_FIELD } from '../handoffs.schema';
import { MAX_LIVE_SCORERS } from '../live-scorers';
import { GuardrailsSchema } from '../guardrails.schema';
import { FastBodySchema } from '../../http/body-schema';
import { DEFAULT_MAX_STEPS, DEFAULT_MEMORY } from '../agent';

import { AgentMemoryDto, MAX_MEMORY, MAX_RECALLED } from './agent-memory.dto';

const MAX_STEPS_LIMIT = 100;
const MAX_FALLBACK_MODELS = 5;

// Request schemas state defaults in words: a `default` keyword makes generated clients require the field.

// Validation stops at a property's first failure, and class-validator runs the lowest decorator first:
// so presence and type come last in each list, then the finer checks above them.

export const OUTPUT_SCHEMA_FIELD = {
  type: 'object',
  additionalProperties: true,
  example: { type: 'object', properties: { title: { type: 'string', maxLength: 200 } }, required: ['title'] },
  description:
    'A JSON Schema (at most 64 KB, `"type": "object"` at its root) the final answer must match; the run then has `outputObject`. Default: none (free text).',
} as const;

export const MODEL_PATTERN = /^[a-z0-9][a-z0-9._-]*\/\S+$/i;
/** A tool id (`current_time`, `mcp:files/read`, `mcp:files/*`), or another agent as `agent:<its name>`. */
const TOOL_PATTERN = /^(?:agent:\S.*|[A-Za-z0-9][A-Za-z0-9._:/*-]*)$/;

const MODEL_ID = { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*/\\S+$' } as const;

const TOOL_IDS = {
  type: 'array',
  maxItems: 100,
  uniqueItems: true,
  items: { type: 'string', maxLength: 200, pattern: TOOL_PATTERN.source },
} as const;

/**
 * The fast path of POST /v1/agents (see FastBodySchema): the rules below, as a JSON Schema at least as strict.
 * Lengths count code points here (class-validator counts no more); the model's pattern is ASCII only.
 */
const CREATE_AGENT_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'model'],
  properties: {
    name: { type: 'string', maxLength: 200, pattern: NOT_BLANK.source },
    model: MODEL_ID,
    description: { type: 'string', maxLength: 1000 },
    instructions: { type: 'string', maxLength: 100_000 },
    tools: TOOL_IDS,
    maxSteps: { type: 'integer', minimum: 1, maximum: MAX_STEPS_LIMIT },
    approvalRequired: TOOL_IDS,
    fallbackModels: { type: 'array', maxItems: MAX_FALLBACK_MODELS, uniqueItems: true, items: MODEL_ID },
    memory: {
      type: 'object',
      additionalProperties: false,
      required: ['maxMessages'],
      properties: {
        maxMessages: { type: 'integer', minimum: 0, maximum: MAX_MEMORY },
        namespace: { type: 'string', maxLength: 500 },
        tools: { type: 'boolean' },
        summarize: { type: 'boolean' },
        working: { type: 'object', additionalProperties: false, properties: { schema: { type: 'object' } } },
        recall: {
          type: 'object',
          additionalProperties: false,
          required: ['limit'],
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: MAX_RECALLED },
            minScore: { type: 'number', minimum: 0, maximum: 1000 },
          },
        },
      },
    },
    outputSchema: { type: 'object' },
    guardrails: { type: 'object' },
    scorers: {
      type: 'array',
      maxItems: MAX_LIVE_SCORERS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scorer', 'sampling'],
        properties: {
          scorer: { type: 'string', maxLength: 200 },
          sampling: { type: 'number', minimum: 0, maximum: 1 },
        },
      },
    },
    handoffs: {
      type: 'array',
      maxItems: MAX_HANDOFFS,
      items: {
        anyOf: [
          { type: 'string', maxLength: 200 },
          {
            type: 'object',
            additionalProperties: false,
            required: ['agent'],
            properties: { agent: { type: 'string', maxLength: 200 }, input: { enum: HANDOFF_INPUTS } },
          },
        ],
      },
    },
  },
} as const;

/** The name in NFC, as `normalizeText` makes it; should that break a rule after all, class-validator says so. */
function normalizedName(dto: CreateAgentDto): CreateAgentDto | undefined {
  dto.name = dto.name.normalize('NFC');
  return dto.name.length <= 200 && NOT_BLANK.test(dto.name) ? dto : undefined;
}

@FastBodySchema(CREATE_AGENT_BODY, normalizedName)
export class CreateAgentDto {
  @ApiProperty({ maxLength: 200, example: 'researcher', description: 'Unique among agents.' })
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'name must not be empty' })
  @IsString()
  @IsDefined({ message: 'name is required' })
  @Transform(normalizeText)
  name: string;

  @ApiProperty({
    maxLength: 200,
    example: 'openai/gpt-4o-mini',
    description: '`provider/model`; providers: openai, anthropic, ollama, openai-compatible.',
  })
  @MaxLength(200)
  @Matches(MODEL_PATTERN, { message: 'model must be "provider/model", e.g. "openai/gpt-4o-mini"' })
  @IsString()
  @IsDefined({ message: 'model is required' })
  model: string;

  @ApiPropertyOptional({
    maxLength: 1000,
    example: 'Finds primary sources for a claim and quotes them.',
    description: 'What the agent is for, for people and for other agents choosing it. Default: "".',
  })
  @MaxLength(1000)
  @IsString()
  @Optional()
  description: string = '';

  @ApiPropertyOptional({ maxLength: 100_000, description: 'The system prompt. Default: none.' })
  @MaxLength(100_000)
  @IsString()
  @Optional()
  instructions: string = '';

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 200 },
    maxItems: 100,
    example: ['current_time'],
    description:
      'Tool ids from GET /v1/tools, and other agents as `agent:<name>` (an agent may name itself): a call of one starts a child run of it. Default: none.',
  })
  @MaxLength(200, { each: true })
  @Matches(TOOL_PATTERN, {
    each: true,
    message:
      'each tool must be a tool id such as "current_time" or "mcp:files/read" (GET /v1/tools lists them), or "agent:<name>"',
  })
  @IsString({ each: true })
  @ArrayUnique({ message: 'tools must not repeat a tool' })
  @ArrayMaxSize(100)
  @IsArray()
  @Optional()
  tools: string[] = [];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 100,
    description: `Model calls one run may make. Default: ${DEFAULT_MAX_STEPS}.`,
  })
  @Max(MAX_STEPS_LIMIT)
  @Min(1)
  @IsInt({ message: 'maxSteps must be an integer' })
  @Optional()
  maxSteps: number = DEFAULT_MAX_STEPS;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 200 },
    maxItems: 100,
    example: ['http_get', 'mcp:files/*'],
    description: "Tool ids, or `mcp:<server>/*`, whose calls wait for a person's approval. Default: none.",
  })
  @MaxLength(200, { each: true })
  @Matches(TOOL_PATTERN, {
    each: true,
    message: 'each approvalRequired entry must be a tool id such as "http_get", or "mcp:<server>/*"',
  })
  @IsString({ each: true })
  @ArrayUnique({ message: 'approvalRequired must not repeat an entry' })
  @ArrayMaxSize(100)
  @IsArray()
  @Optional()
  approvalRequired: string[] = [];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 200 },
    maxItems: MAX_FALLBACK_MODELS,
    example: ['anthropic/claude-3-5-haiku-latest'],
    description:
      "`provider/model`s to make a model call again on, in order, when it fails by the provider's fault (unreachable, 5xx, 408 or 429 after retries, not configured); a 4xx about the request does not fall back. Default: none.",
  })
  @MaxLength(200, { each: true })
  @Matches(MODEL_PATTERN, {
    each: true,
    message: 'each fallbackModels entry must be "provider/model", e.g. "anthropic/claude-3-5-haiku-latest"',
  })
  @IsString({ each: true })
  @ArrayUnique({ message: 'fallbackModels must not repeat a model' })
  @ArrayMaxSize(MAX_FALLBACK_MODELS)
  @IsArray()
  @Optional()
  fallbackModels: string[] = [];

  @ApiPropertyOptional({
    type: () => AgentMemoryDto,
    description: `What a run on a thread sees of it. Default: {"maxMessages": ${DEFAULT_MEMORY.maxMessages}}.`,
  })
  @ValidateNested()
  @Type(() => AgentMemoryDto)
  @IsObject({ message: 'memory must be an object' })
  @Optional()
  memory: AgentMemoryDto = Object.assign(new AgentMemoryDto(), DEFAULT_MEMORY);

  /** Free-form JSON, checked as a JSON Schema by checkAgentDefinition. */
  @ApiPropertyOptional(OUTPUT_SCHEMA_FIELD)
  @FreeFormObject({ message: 'outputSchema must be a JSON Schema object' })
  outputSchema: Record<string, unknown> | null = null;

  @ApiPropertyOptional({
    type: () => GuardrailsSchema,
    description:
      'Checks on the task (before any model call), the answer and each tool result (before the model sees it). Default: none.',
  })
  @FreeFormObject({ message: 'guardrails must be an object of input, output and toolResults' })
  guardrails: Guardrails = {};

  /** Each entry is checked by checkAgentDefinition (a name, or `{agent, input}`). */
  @ApiPropertyOptional(HANDOFFS_FIELD)
  @ArrayMaxSize(MAX_HANDOFFS)
  @IsArray({ message: 'handoffs must be a list of agent names' })
  @Optional()
  handoffs: HandoffSpec[] = [];

  @ApiPropertyOptional({
    type: () => [LiveScorerDto],
    maxItems: MAX_LIVE_SCORERS,
    example: [{ scorer: 'polite', sampling: 0.1 }],
    description:
      'Scorers (by name) its succeeded runs are scored by after they end, each on a share of them: `sampling` from 0 (none) to 1 (every run). Default: none.',
  })
  @ValidateNested({ each: true })
  @Type(() => LiveScorerDto)
  @ArrayMaxSize(MAX_LIVE_SCORERS)
  @IsArray({ message: 'scorers must be a list of {scorer, sampling}' })
  @Optional()
  scorers: LiveScorerDto[] = [];
}

export class LiveScorerDto {
  @ApiProperty({ maxLength: 200, description: "An active scorer's name." })
  @MaxLength(200)
  @IsString({ message: 'scorer must be a scorer name' })
  @IsDefined({ message: 'scorer is required' })
  scorer: string;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'The share of its succeeded runs scored: 0 none, 1 every run.' })
  @Max(1, { message: 'sampling must be from 0 to 1' })
  @Min(0, { message: 'sampling must be from 0 to 1' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'sampling must be a number from 0 to 1' })
  @IsDefined({ message: 'sampling is required' })
  sampling: number;
}
