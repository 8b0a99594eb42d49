/** The later of two instants, either of which may be unknown (null). */
export function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return isAfter(b, a) ? b : a;
}

/**
 * Whether instant `a` comes after `b`. Two times as `toISOString` writes them compare as text, which spares a tick's
 * thousands of triggers their Date.parse calls; any other form is parsed.
 */
export function isAfter(a: string, b: string): boolean {
  return a.length === 24 && b.length === 24 && a[23] === 'Z' && b[23] === 'Z' ? a > b : Date.parse(a) > Date.parse(b);
}
