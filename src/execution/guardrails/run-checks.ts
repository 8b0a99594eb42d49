import type { FoundSpan, GuardrailCheck, GuardrailStage, GuardrailVerdict } from '../../agents/guardrails';
import { compilePattern } from '../../shared/linear-patterns';
import { findPii } from './pii';

export interface CheckedText {
  /** The text to go on with: redacted where a check said so. */
  text: string;
  verdicts: GuardrailVerdict[];
  /** The verdict that blocked the text, if one did (the checks after it did not run). */
  blocked?: GuardrailVerdict;
}

/** Runs the checks in order on `text`; a redaction changes the text the next check sees, a block stops there. */
export function runChecks(text: string, checks: readonly GuardrailCheck[], stage: GuardrailStage): CheckedText {
  const verdicts: GuardrailVerdict[] = [];
  let current = text;
  for (const [i, check] of checks.entries()) {
    const { spans, reason } = find(check, current);
    const base = { stage, check: i, type: check.type, action: check.action, spans };
    if (!spans.length) {
      verdicts.push({ ...base, verdict: 'passed' });
      continue;
    }
    if (check.action === 'block') {
      const blocked: GuardrailVerdict = { ...base, verdict: 'blocked', reason };
      verdicts.push(blocked);
      return { text: current, verdicts, blocked };
    }
    if (check.action === 'warn') verdicts.push({ ...base, verdict: 'warned', reason });
    else {
      verdicts.push({ ...base, verdict: 'redacted', reason });
      current = redact(current, spans);
    }
  }
  return { text: current, verdicts };
}

function find(check: GuardrailCheck, text: string): { spans: FoundSpan[]; reason?: string } {
  switch (check.type) {
    case 'pattern': {
      const matcher = compilePattern(check.pattern, check.flags).matcher(text);
      const spans: FoundSpan[] = [];
      while (matcher.find()) {
        // An empty match finds nothing to act on.
        if (matcher.end() > matcher.start())
          spans.push({ start: matcher.start(), end: matcher.end(), kind: 'pattern' });
        if (spans.length >= 10_000) break;
      }
      return { spans, reason: `${spans.length} match${spans.length === 1 ? '' : 'es'} of the pattern` };
    }
    case 'pii': {
      const spans = findPii(text, check.kinds);
      const kinds = [...new Set(spans.map((span) => span.kind))];
      return { spans, reason: `found ${kinds.join(', ')} (${spans.length})` };
    }
    case 'max_length':
      if (text.length <= check.chars) return { spans: [] };
      return {
        spans: [{ start: check.chars, end: text.length, kind: 'length' }],
        reason: `${text.length} characters, more than ${check.chars}`,
      };
  }
}

/** Each span replaced by `[redacted:<kind>]`. */
function redact(text: string, spans: FoundSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span.start)}[redacted:${span.kind}]`;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * The checks on a JSON value (a tool's result, a structured answer): judged on its JSON text, and where a check
 * redacts, the redaction made in each string inside it, so that the value keeps its shape.
 */
export function runChecksOnValue<T>(
  value: T,
  checks: readonly GuardrailCheck[],
  stage: GuardrailStage,
): { value: T; verdicts: GuardrailVerdict[]; blocked?: GuardrailVerdict } {
  if (typeof value === 'string') {
    const checked = runChecks(value, checks, stage);
    return { value: checked.text as T, verdicts: checked.verdicts, blocked: checked.blocked };
  }
  const checked = runChecks(JSON.stringify(value) ?? 'null', checks, stage);
  if (checked.blocked || !checked.verdicts.some((verdict) => verdict.verdict === 'redacted')) {
    return { value, verdicts: checked.verdicts, blocked: checked.blocked };
  }
  const redacting = checks.filter((check) => check.action === 'redact');
  const walk = (part: unknown): unknown => {
    if (typeof part === 'string') return runChecks(part, redacting, stage).text;
    if (Array.isArray(part)) return part.map(walk);
    if (part && typeof part === 'object') return Object.fromEntries(Object.entries(part).map(([k, v]) => [k, walk(v)]));
    return part;
  };
  return { value: walk(value) as T, verdicts: checked.verdicts };
}
