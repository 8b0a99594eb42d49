import type { FoundSpan, GuardrailCheck, GuardrailStage, GuardrailVerdict } from '../guardrails';
import { compilePattern } from '../../shared/linear-patterns';
import { findPii } from './pii';

export interface CheckedText {
  /** The text to go on with: redacted where a check said so. */
  text: string;
  verdicts: GuardrailVerdict[];
  /** The verdict that blocked the text, if one did (the checks after it did not run). */
  blocked?: GuardrailVerdict;
}

/** A judge agent's answer on a text: whether it may go on, and why. */
export interface JudgeAnswer {
  allow: boolean;
  reason: string;
}

/** Asks the agent named `agent` about `text`, seen at `stage`. */
export type Judge = (agent: string, stage: GuardrailStage, text: string) => Promise<JudgeAnswer>;

const NO_JUDGE: Judge = () => Promise.reject(new Error('A judge check was run without a judge'));

/** Which checks a pass runs: all of them, those of this service alone (not the judges), or the judges alone. */
export type ChecksRun = 'all' | 'local' | 'judges';

/**
 * Runs the checks in order on `text` (those `run` names; the others give no verdict); a redaction changes the text
 * the next check sees, a block stops there.
 */
export async function runChecks(
  text: string,
  checks: readonly GuardrailCheck[],
  stage: GuardrailStage,
  judge: Judge = NO_JUDGE,
  run: ChecksRun = 'all',
): Promise<CheckedText> {
  const checked: CheckedText = { text, verdicts: [] };
  for (const [i, check] of checks.entries()) {
    if (check.type === 'agent' ? run === 'local' : run === 'judges') continue;
    const found =
      check.type === 'agent' ? await judged(check.agent, stage, checked.text, judge) : find(check, checked.text);
    if (judgeBy(checked, stage, i, check, found)) break;
  }
  return checked;
}

/** The checks of this service alone, which need no judge and so no wait: see `runChecks`. */
export function runLocalChecks(text: string, checks: readonly GuardrailCheck[], stage: GuardrailStage): CheckedText {
  const checked: CheckedText = { text, verdicts: [] };
  for (const [i, check] of checks.entries()) {
    if (check.type !== 'agent' && judgeBy(checked, stage, i, check, find(check, checked.text))) break;
  }
  return checked;
}

/** Adds what check `i` found to `checked` (its verdict, the text redacted); true when it blocked the text. */
function judgeBy(checked: CheckedText, stage: GuardrailStage, i: number, check: GuardrailCheck, found: Found): boolean {
  const { spans, reason } = found;
  const base = { stage, check: i, type: check.type, action: check.action, spans };
  if (!spans.length) {
    // A judge's reason for letting the text go on is worth keeping; a pattern's "0 matches" is not.
    checked.verdicts.push({ ...base, verdict: 'passed', ...(check.type === 'agent' && { reason }) });
    return false;
  }
  if (check.action === 'block') {
    checked.blocked = { ...base, verdict: 'blocked', reason };
    checked.verdicts.push(checked.blocked);
    return true;
  }
  if (check.action === 'warn') checked.verdicts.push({ ...base, verdict: 'warned', reason });
  else {
    checked.verdicts.push({ ...base, verdict: 'redacted', reason });
    checked.text = redact(checked.text, spans);
  }
  return false;
}

interface Found {
  spans: FoundSpan[];
  reason?: string;
}

/** A judge that does not allow the text finds all of it. */
async function judged(agent: string, stage: GuardrailStage, text: string, judge: Judge): Promise<Found> {
  const { allow, reason } = await judge(agent, stage, text);
  return { spans: allow ? [] : [{ start: 0, end: text.length, kind: 'agent' }], reason };
}

function find(check: Exclude<GuardrailCheck, { type: 'agent' }>, text: string): Found {
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
 * redacts, the redaction made in each string inside it, so that the value keeps its shape. A judge that redacts
 * has not said where: the whole value is then `[redacted:agent]`.
 */
export async function runChecksOnValue<T>(
  value: T,
  checks: readonly GuardrailCheck[],
  stage: GuardrailStage,
  judge?: Judge,
): Promise<{ value: T; verdicts: GuardrailVerdict[]; blocked?: GuardrailVerdict }> {
  if (typeof value === 'string') {
    const checked = await runChecks(value, checks, stage, judge);
    return { value: checked.text as T, verdicts: checked.verdicts, blocked: checked.blocked };
  }
  const checked = await runChecks(JSON.stringify(value) ?? 'null', checks, stage, judge);
  const redacted = checked.verdicts.filter((verdict) => verdict.verdict === 'redacted');
  if (checked.blocked || !redacted.length) return { value, verdicts: checked.verdicts, blocked: checked.blocked };
  if (redacted.some((verdict) => verdict.type === 'agent')) {
    return { value: '[redacted:agent]' as T, verdicts: checked.verdicts };
  }
  const redacting = checks.filter(
    (check): check is Exclude<GuardrailCheck, { type: 'agent' }> => check.action === 'redact' && check.type !== 'agent',
  );
  const walk = (part: unknown): unknown => {
    if (typeof part === 'string') return redactAll(part, redacting);
    if (Array.isArray(part)) return part.map(walk);
    if (part && typeof part === 'object') return Object.fromEntries(Object.entries(part).map(([k, v]) => [k, walk(v)]));
    return part;
  };
  return { value: walk(value) as T, verdicts: checked.verdicts };
}

/** The text with what each check finds redacted, in order. */
function redactAll(text: string, checks: readonly Exclude<GuardrailCheck, { type: 'agent' }>[]): string {
  return checks.reduce((current, check) => {
    const { spans } = find(check, current);
    return spans.length ? redact(current, spans) : current;
  }, text);
}
