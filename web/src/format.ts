/** How times, durations and JSON are shown; a time always with its zone (the browser's unless one is given). */
export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
}

/** The time of day with its zone, for lists where the date is mostly today's; `formatTime` for the whole. */
export function formatClock(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, {
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

export function formatDuration(startIso: string | null, endIso: string | null, now = Date.now()): string {
  if (!startIso) return '—';
  const ms = (endIso ? Date.parse(endIso) : now) - Date.parse(startIso);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Parses a JSON object typed by the user; throws a message fit to show next to the field. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`Not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('Must be a JSON object, e.g. {"topic": "cron"}');
  return value as Record<string, unknown>;
}

/** US dollars: cents for sums of a dollar or more, else enough digits to show a fraction of a cent. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2).replace(/0+$/, '')}`;
}

/** Where a run was asked for, when not over the HTTP API: `MCP session 5f…`. */
export function formatSource(source: {
  protocol: string;
  sessionId?: string;
  contextId?: string;
  scorerId?: string;
}): string {
  if (source.protocol === 'scorer') return `the judge of scorer ${source.scorerId}`;
  return source.protocol === 'mcp' ? `MCP session ${source.sessionId}` : `A2A conversation ${source.contextId}`;
}

/** A text that may have been forgotten with its subject (`{"forgotten": true}`), as the console shows it. */
export function shownText<T extends string | null | undefined>(text: T | { forgotten: true }): T | string {
  return typeof text === 'object' && text !== null ? '(forgotten with its subject)' : (text as T);
}

export const isForgotten = (value: unknown): value is { forgotten: true } =>
  typeof value === 'object' && value !== null && (value as { forgotten?: unknown }).forgotten === true;
