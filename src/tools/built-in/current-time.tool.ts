import { z } from 'zod';
import { Clock } from '../../shared/clock';
import { ExecutableTool, ToolFailure } from '../executable-tool';
import { defineTool } from './define-tool';

const input = z.object({
  timezone: z.string().optional().describe('IANA time zone for the local time, e.g. "Europe/Paris"; UTC when left out'),
});

export interface CurrentTime {
  /** ISO 8601 in UTC, e.g. `2026-03-01T12:00:00.000Z`. */
  utc: string;
  timezone: string;
  /** ISO 8601 with the zone's offset, e.g. `2026-03-01T13:00:00.000+01:00`. */
  local: string;
  weekday: string;
}

export function currentTimeTool(clock: Clock): ExecutableTool {
  return defineTool({
    id: 'current_time',
    description: 'The current date and time: ISO 8601 in UTC and local time in an optional IANA time zone.',
    input,
    run: async ({ timezone = 'UTC' }) => currentTime(clock.now(), timezone),
  });
}

export function currentTime(now: Date, timezone: string): CurrentTime {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new ToolFailure(`Unknown time zone "${timezone}": use an IANA name such as "Europe/Paris" or "UTC"`);
  }
  const part = Object.fromEntries(format.formatToParts(now).map(({ type, value }) => [type, value]));
  // longOffset reads "GMT+01:00", or plain "GMT" at offset zero.
  const offset = part.timeZoneName === 'GMT' ? '+00:00' : part.timeZoneName.replace('GMT', '');
  const millis = String(now.getUTCMilliseconds()).padStart(3, '0');
  return {
    utc: now.toISOString(),
    timezone: format.resolvedOptions().timeZone,
    local: `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}.${millis}${offset}`,
    weekday: part.weekday,
  };
}
