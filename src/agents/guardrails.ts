/** What a check does when it finds something: stop the text, cut out what it found, or only say so. */
export type GuardrailAction = 'block' | 'redact' | 'warn';
export const GUARDRAIL_ACTIONS: readonly GuardrailAction[] = ['block', 'redact', 'warn'];

export type PiiKind = 'email' | 'phone' | 'card' | 'iban' | 'ip';
export const PII_KINDS: readonly PiiKind[] = ['email', 'phone', 'card', 'iban', 'ip'];

/**
 * One check of a text: a regular expression (run by a linear-time engine, so no pattern can stall the service),
 * personal data of the kinds named, a length limit, or a judge: another agent, asked whether the text may go on.
 */
export type GuardrailCheck =
  | { type: 'pattern'; pattern: string; flags?: string; action: GuardrailAction }
  | { type: 'pii'; kinds: PiiKind[]; action: GuardrailAction }
  | { type: 'max_length'; chars: number; action: GuardrailAction }
  | { type: 'agent'; agent: string; action: GuardrailAction };
export const GUARDRAIL_TYPES: readonly GuardrailCheck['type'][] = ['pattern', 'pii', 'max_length', 'agent'];

/** Where checks run: on the task before any model call, on the answer, on each tool's result before the model. */
export type GuardrailStage = 'input' | 'output' | 'toolResults';
export const GUARDRAIL_STAGES: readonly GuardrailStage[] = ['input', 'output', 'toolResults'];

export type Guardrails = Partial<Record<GuardrailStage, GuardrailCheck[]>>;

/** A stretch of a text a check found: `[start, end)` in UTF-16 units, and what it is (never the text itself). */
export interface FoundSpan {
  start: number;
  end: number;
  kind: string;
}

/** What one check made of one text: passed, or what it found and what it did. */
export interface GuardrailVerdict {
  stage: GuardrailStage;
  /** The check's position in its stage's list. */
  check: number;
  type: GuardrailCheck['type'];
  action: GuardrailAction;
  verdict: 'passed' | 'blocked' | 'redacted' | 'warned';
  /** Where it found something, in the text as the check saw it. */
  spans: FoundSpan[];
  reason?: string;
}
