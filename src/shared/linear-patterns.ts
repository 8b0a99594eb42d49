import { RE2JS } from 're2js';

const compiled = new Map<string, RE2JS>();

/**
 * A guardrail's pattern compiled by RE2JS, a linear-time engine (no backreferences, no lookarounds), so that no
 * pattern a user gives can stall the service on any text. Kept for the next text: the same few patterns come often.
 */
export function compilePattern(pattern: string, flags = ''): RE2JS {
  const key = `${flags}/${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    let bits = 0;
    if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) bits |= RE2JS.MULTILINE;
    if (flags.includes('s')) bits |= RE2JS.DOTALL;
    regex = RE2JS.compile(pattern, bits);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(key, regex);
  }
  return regex;
}

/** Null when the engine takes the pattern, else why not (e.g. a backreference, which it cannot run in linear time). */
export function patternProblem(pattern: string, flags: string): string | null {
  try {
    compilePattern(pattern, flags);
    return null;
  } catch (error) {
    return `pattern is not one the linear-time engine runs: ${(error as Error).message}`;
  }
}
