import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TIME } from '../http/openapi/fields';
import { GUARDRAIL_ACTIONS, GUARDRAIL_STAGES, GUARDRAIL_TYPES, PII_KINDS } from './guardrails';

const CHECKS = 20;

/** One check; the fields beside `type` and `action` are those of its type. */
export class GuardrailCheckSchema {
  @ApiProperty({ enum: GUARDRAIL_TYPES })
  type: string;

  @ApiProperty({
    enum: GUARDRAIL_ACTIONS,
    description:
      '`block`: the run fails (`guardrail_blocked`) or the tool result is withheld; `redact`: what was found is replaced by `[redacted:<kind>]` (for a judge, the whole text: `[redacted:agent]`); `warn`: recorded only.',
  })
  action: string;

  @ApiPropertyOptional({
    maxLength: 1000,
    example: 'internal-\\d+',
    description: '`pattern`: a regular expression run by a linear-time engine (RE2: no backreferences or lookarounds).',
  })
  pattern?: string;

  @ApiPropertyOptional({
    maxLength: 3,
    example: 'i',
    description: '`pattern`: any of i (case), m (lines), s (dot all).',
  })
  flags?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...PII_KINDS] },
    maxItems: PII_KINDS.length,
    description: '`pii`: the kinds to find (cards by Luhn, IBANs by their check digits).',
  })
  kinds?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 10_000_000, description: '`max_length`: the most characters allowed.' })
  chars?: number;

  @ApiPropertyOptional({
    maxLength: 100,
    example: 'safety-judge',
    description:
      '`agent`: the name of the judge, an active agent asked with the text, whose structured answer `{allow, reason}` decides (a judge that cannot answer does not allow). Its tokens and cost count to the run.',
  })
  agent?: string;
}

/** Where the checks run, each list in order. */
export class GuardrailsSchema {
  @ApiPropertyOptional({
    type: [GuardrailCheckSchema],
    maxItems: CHECKS,
    description: 'On the task, before any model call.',
  })
  input?: GuardrailCheckSchema[];

  @ApiPropertyOptional({
    type: [GuardrailCheckSchema],
    maxItems: CHECKS,
    description: 'On the answer, before it is recorded.',
  })
  output?: GuardrailCheckSchema[];

  @ApiPropertyOptional({
    type: [GuardrailCheckSchema],
    maxItems: CHECKS,
    description: "On each tool's result, before the model sees it.",
  })
  toolResults?: GuardrailCheckSchema[];
}

/** What one check made of one text: positions and kinds of what it found, never the text. */
export class GuardrailVerdictSchema {
  @ApiProperty({ enum: GUARDRAIL_STAGES })
  stage: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'For `toolResults`: the tool call checked.' })
  callId?: string;

  @ApiProperty({ description: "The check's position in its stage's list." })
  check: number;

  @ApiProperty({ enum: GUARDRAIL_TYPES })
  type: string;

  @ApiProperty({ enum: GUARDRAIL_ACTIONS })
  action: string;

  @ApiProperty({ enum: ['passed', 'blocked', 'redacted', 'warned'] })
  verdict: string;

  @ApiProperty({
    type: 'array',
    maxItems: 10_000,
    items: {
      type: 'object',
      properties: { start: { type: 'number' }, end: { type: 'number' }, kind: { type: 'string', maxLength: 20 } },
      required: ['start', 'end', 'kind'],
    },
    description: 'Where it found something, in the text as it saw it.',
  })
  spans: Array<{ start: number; end: number; kind: string }>;

  @ApiPropertyOptional({ maxLength: 200 })
  reason?: string;

  @ApiProperty(TIME)
  at: string;
}
