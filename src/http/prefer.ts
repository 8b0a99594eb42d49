/**
 * The `wait` preference of RFC 7240 (`Prefer: wait=10`), in seconds, capped at `max`; undefined when not asked
 * for or not a whole number of seconds (a preference that cannot be honoured is ignored, as the RFC says).
 */
export function preferredWait(header: string | string[] | undefined, max: number): number | undefined {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const preference of values.flatMap((value) => value.split(','))) {
    const match = /^\s*wait\s*=\s*"?(\d{1,9})"?\s*(;.*)?$/i.exec(preference);
    if (match) return Math.min(Number(match[1]), max);
  }
  return undefined;
}
