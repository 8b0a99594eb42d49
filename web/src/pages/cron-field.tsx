import { useMemo } from 'preact/hooks';
import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import { previewCron } from './cron-preview';

const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

interface CronFieldProps {
  cron: string;
  timezone: string;
  onCron: (value: string) => void;
  onTimezone: (value: string) => void;
  error: ProblemError | null;
}

/** A cron expression and its time zone, with whether they are valid and the next five fire times, as you type. */
export function CronField({ cron, timezone, onCron, onTimezone, error }: CronFieldProps) {
  const preview = useMemo(() => previewCron(cron, timezone), [cron, timezone]);
  const zone = timezone.trim() || 'UTC';
  return (
    <div class="cron">
      <div class="row">
        <Field id="wf-cron" label="Cron (minute hour day-of-month month day-of-week)" path="trigger.cron" error={error}>
          {(describedBy, invalid) => (
            <input
              id="wf-cron"
              class="mono"
              value={cron}
              onInput={(e) => onCron(e.currentTarget.value)}
              aria-describedby={[describedBy, 'cron-preview'].filter(Boolean).join(' ')}
              aria-invalid={invalid || !preview.valid}
            />
          )}
        </Field>
        <Field id="wf-timezone" label="Time zone" path="trigger.timezone" error={error}>
          {(describedBy, invalid) => (
            <>
              <input
                id="wf-timezone"
                list="time-zones"
                value={timezone}
                onInput={(e) => onTimezone(e.currentTarget.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
              <datalist id="time-zones">
                {ZONES.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>
      <div
        id="cron-preview"
        class={preview.valid ? 'cron-ok' : 'cron-bad'}
        aria-live="polite"
        data-testid="cron-preview"
      >
        {preview.valid ? (
          <>
            <strong>Valid.</strong> Next five runs ({zone}):
            <ol>
              {preview.next.map((date) => (
                <li key={+date}>
                  <time dateTime={date.toISOString()}>
                    {date.toLocaleString(undefined, {
                      timeZone: zone,
                      weekday: 'short',
                      year: 'numeric',
                      month: 'short',
                      day: 'numeric',
                      hour: '2-digit',
                      minute: '2-digit',
                      timeZoneName: 'short',
                    })}
                  </time>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <>
            <strong>Not valid:</strong> {preview.problem}
          </>
        )}
      </div>
    </div>
  );
}
