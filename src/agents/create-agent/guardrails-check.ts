import type { FieldError } from '../../shared/validation-failed';
import { patternProblem } from '../../shared/linear-patterns';
import { GUARDRAIL_ACTIONS, GUARDRAIL_STAGES, GUARDRAIL_TYPES, PII_KINDS } from '../guardrails';

const MAX_CHECKS = 20;
const MAX_PATTERN = 1000;
const FLAGS = /^[ims]{0,3}$/;

/**
 * The problems of a `guardrails` value, each by its path (`guardrails.input[0].pattern`); a pattern must be one the
 * linear-time engine runs.
 */
export function guardrailsErrors(value: unknown, compiles = patternProblem): FieldError[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value))
    return [{ path: 'guardrails', message: 'guardrails must be an object of input, output and toolResults' }];
  const errors: FieldError[] = [];
  for (const key of Object.keys(value)) {
    if (!(GUARDRAIL_STAGES as readonly string[]).includes(key)) {
      errors.push({ path: `guardrails.${key}`, message: 'is not a known stage (input, output, toolResults)' });
    }
  }
  for (const stage of GUARDRAIL_STAGES) {
    const checks = value[stage];
    if (checks === undefined) continue;
    const at = `guardrails.${stage}`;
    if (!Array.isArray(checks)) errors.push({ path: at, message: `${stage} must be a list of checks` });
    else if (checks.length > MAX_CHECKS)
      errors.push({ path: at, message: `${stage} may hold at most ${MAX_CHECKS} checks` });
    else checks.forEach((check, i) => errors.push(...checkErrors(check, `${at}[${i}]`, compiles)));
  }
  return errors;
}

/** Each judge (`{type: "agent"}`) must name an active agent, or the agent itself. */
export function judgeErrors(
  value: unknown,
  self: string | undefined,
  agents: { hasAgentNamed(name: string): boolean },
): FieldError[] {
  if (!isObject(value)) return [];
  const errors: FieldError[] = [];
  for (const stage of GUARDRAIL_STAGES) {
    const checks = value[stage];
    if (!Array.isArray(checks)) continue;
    checks.forEach((check: unknown, i) => {
      if (!isObject(check) || check.type !== 'agent' || typeof check.agent !== 'string' || !check.agent) return;
      if (check.agent === self || agents.hasAgentNamed(check.agent)) return;
      const message = `No active agent is named "${check.agent}" (GET /v1/agents lists them)`;
      errors.push({ path: `guardrails.${stage}[${i}].agent`, message });
    });
  }
  return errors;
}

function checkErrors(
  check: unknown,
  at: string,
  compiles: (pattern: string, flags: string) => string | null,
): FieldError[] {
  if (!isObject(check)) return [{ path: at, message: 'a check must be an object with type and action' }];
  const errors: FieldError[] = [];
  const known = (fields: string[]) => {
    for (const key of Object.keys(check)) {
      if (!['type', 'action', ...fields].includes(key))
        errors.push({ path: `${at}.${key}`, message: 'is not a field of this check' });
    }
  };
  if (!(GUARDRAIL_ACTIONS as readonly unknown[]).includes(check.action)) {
    errors.push({ path: `${at}.action`, message: 'action must be one of block, redact, warn' });
  }
  switch (check.type) {
    case 'pattern': {
      known(['pattern', 'flags']);
      const flags = check.flags ?? '';
      if (typeof check.pattern !== 'string' || !check.pattern || check.pattern.length > MAX_PATTERN) {
        errors.push({
          path: `${at}.pattern`,
          message: `pattern must be a regular expression of 1 to ${MAX_PATTERN} characters`,
        });
      } else if (typeof flags !== 'string' || !FLAGS.test(flags)) {
        errors.push({ path: `${at}.flags`, message: 'flags may hold i, m and s' });
      } else {
        const problem = compiles(check.pattern, flags);
        if (problem) errors.push({ path: `${at}.pattern`, message: problem });
      }
      break;
    }
    case 'pii':
      known(['kinds']);
      if (
        !Array.isArray(check.kinds) ||
        check.kinds.length === 0 ||
        !check.kinds.every((kind) => (PII_KINDS as readonly unknown[]).includes(kind))
      ) {
        errors.push({ path: `${at}.kinds`, message: `kinds must name one or more of ${PII_KINDS.join(', ')}` });
      }
      break;
    case 'max_length':
      known(['chars']);
      if (!Number.isInteger(check.chars) || (check.chars as number) < 1 || (check.chars as number) > 10_000_000) {
        errors.push({ path: `${at}.chars`, message: 'chars must be a whole number from 1 to 10000000' });
      }
      break;
    case 'agent':
      known(['agent']);
      if (typeof check.agent !== 'string' || !check.agent) {
        errors.push({ path: `${at}.agent`, message: 'agent must name the agent that judges the text' });
      }
      break;
    default:
      errors.push({ path: `${at}.type`, message: `type must be one of ${GUARDRAIL_TYPES.join(', ')}` });
  }
  return errors;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
