import type { Agent, components } from '../api/schema';
import { FieldProblem, parseCount } from './form-problem';

type Check = components['schemas']['GuardrailCheckSchema'];
export type GuardrailType = Check['type'];
export type GuardrailAction = Check['action'];
export type PiiKind = NonNullable<Check['kinds']>[number];
export type GuardrailStage = 'input' | 'output' | 'toolResults';

export const GUARDRAIL_STAGES: GuardrailStage[] = ['input', 'output', 'toolResults'];
export const STAGE_LABELS: Record<GuardrailStage, string> = {
  input: 'On the task',
  output: 'On the answer',
  toolResults: 'On each tool result',
};
export const TYPE_LABELS: Record<GuardrailType, string> = {
  pattern: 'pattern (regular expression)',
  pii: 'personal data',
  max_length: 'length limit',
  agent: 'judge agent',
};
export const GUARDRAIL_TYPES = Object.keys(TYPE_LABELS) as GuardrailType[];
export const GUARDRAIL_ACTIONS: GuardrailAction[] = ['block', 'redact', 'warn'];
export const PII_KINDS: PiiKind[] = ['email', 'phone', 'card', 'iban', 'ip'];

/** One check as the form holds it: the fields of every type, so that changing its type loses nothing typed. */
export interface GuardrailCheckDraft {
  type: GuardrailType;
  action: GuardrailAction;
  pattern: string;
  flags: string;
  kinds: PiiKind[];
  chars: string;
  /** The judge's name, for `agent`. */
  agent: string;
}

export type GuardrailsDraft = Record<GuardrailStage, GuardrailCheckDraft[]>;

/** A new check of a type, blocking by default. */
export function newCheck(type: GuardrailType = 'pattern'): GuardrailCheckDraft {
  return { type, action: 'block', pattern: '', flags: '', kinds: ['email'], chars: '2000', agent: '' };
}

/** An agent's guardrails as the form holds them. */
export function guardrailsDraft(guardrails?: Agent['guardrails']): GuardrailsDraft {
  const checks = (stage: GuardrailStage) =>
    (guardrails?.[stage] ?? []).map((check) => ({
      ...newCheck(check.type),
      action: check.action,
      pattern: check.pattern ?? '',
      flags: check.flags ?? '',
      kinds: check.kinds ?? [],
      chars: check.chars === undefined ? '2000' : String(check.chars),
      agent: check.agent ?? '',
    }));
  return { input: checks('input'), output: checks('output'), toolResults: checks('toolResults') };
}

/** One check as the API takes it: its type's fields alone, with what the form can tell is wrong. */
function checkBody(check: GuardrailCheckDraft, at: string, problems: FieldProblem[]): Check {
  const { type, action } = check;
  switch (type) {
    case 'pattern':
      if (!check.pattern) problems.push({ path: `${at}.pattern`, message: 'pattern must not be empty' });
      if (!/^[ims]{0,3}$/.test(check.flags))
        problems.push({ path: `${at}.flags`, message: 'flags may hold i, m and s' });
      return { type, action, pattern: check.pattern, ...(check.flags && { flags: check.flags }) };
    case 'pii':
      if (!check.kinds.length) problems.push({ path: `${at}.kinds`, message: 'choose one or more kinds' });
      return { type, action, kinds: check.kinds };
    case 'max_length':
      return { type, action, chars: parseCount(check.chars, `${at}.chars`, 1, 10_000_000, problems) };
    case 'agent':
      if (!check.agent) problems.push({ path: `${at}.agent`, message: 'choose the agent that judges the text' });
      return { type, action, agent: check.agent };
  }
}

/** The guardrails as the API takes them: only the stages that hold checks; none at all is `{}`. */
export function guardrailsBody(draft: GuardrailsDraft, problems: FieldProblem[]): Agent['guardrails'] {
  const body: Agent['guardrails'] = {};
  for (const stage of GUARDRAIL_STAGES) {
    if (draft[stage].length) {
      body[stage] = draft[stage].map((check, i) => checkBody(check, `guardrails.${stage}[${i}]`, problems));
    }
  }
  return body;
}
