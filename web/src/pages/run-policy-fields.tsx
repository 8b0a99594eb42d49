import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import type { WorkflowDraft } from '../forms/workflow-draft';

export const POLICY_PATHS = ['overlap', 'maxConcurrentRuns', 'concurrency', 'concurrency.key', 'concurrency.limit'];

type RunPolicyDraft = Pick<WorkflowDraft, 'overlap' | 'maxConcurrentRuns' | 'concurrencyKey' | 'concurrencyLimit'>;

/** What a tick does while a run is going, and how many runs may go at once, in all and per key. */
export function RunPolicyFields({
  policy,
  onChange,
  error,
}: {
  policy: RunPolicyDraft;
  onChange: (policy: RunPolicyDraft) => void;
  error: ProblemError | null;
}) {
  return (
    <>
      <div class="row">
        <Field
          id="wf-overlap"
          label="Overlap"
          path="overlap"
          error={error}
          hint="What a schedule tick does while a run is still going."
        >
          {(describedBy, invalid) => (
            <select
              id="wf-overlap"
              value={policy.overlap}
              onChange={(e) => onChange({ ...policy, overlap: e.currentTarget.value as RunPolicyDraft['overlap'] })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            >
              <option value="allow">allow: start another run</option>
              <option value="skip">skip: record the tick as skipped</option>
              <option value="buffer_one">buffer_one: run the newest tick when the run ends</option>
            </select>
          )}
        </Field>
        <Field
          id="wf-max-runs"
          label="Max concurrent runs"
          path="maxConcurrentRuns"
          error={error}
          hint="Runs beyond it wait, queued, in order. Blank: no limit."
        >
          {(describedBy, invalid) => (
            <input
              id="wf-max-runs"
              inputMode="numeric"
              value={policy.maxConcurrentRuns}
              onInput={(e) => onChange({ ...policy, maxConcurrentRuns: e.currentTarget.value })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
      </div>
      <div class="row">
        <Field
          id="wf-concurrency-key"
          label="Concurrency key"
          path="concurrency.key"
          error={error}
          hint="A template over the input, such as {{input.customerId}}: runs of one key share the limit beside it. Blank: none."
        >
          {(describedBy, invalid) => (
            <input
              id="wf-concurrency-key"
              value={policy.concurrencyKey}
              onInput={(e) => onChange({ ...policy, concurrencyKey: e.currentTarget.value })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field
          id="wf-concurrency-limit"
          label="Runs at once per key"
          path="concurrency.limit"
          error={error}
          hint="Runs of a key beyond it wait, queued, behind that key's runs only."
        >
          {(describedBy, invalid) => (
            <input
              id="wf-concurrency-limit"
              inputMode="numeric"
              value={policy.concurrencyLimit}
              onInput={(e) => onChange({ ...policy, concurrencyLimit: e.currentTarget.value })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              disabled={!policy.concurrencyKey.trim()}
            />
          )}
        </Field>
      </div>
    </>
  );
}
