import type { ProblemError } from '../api/client';
import type { Workflow } from '../api/schema';
import { Field } from '../components/field';

export interface RunPolicyDraft {
  overlap: string;
  /** Blank: no limit. */
  maxConcurrentRuns: string;
}

export const POLICY_PATHS = ['overlap', 'maxConcurrentRuns'];

export function policyDraft({ overlap, maxConcurrentRuns }: Workflow): RunPolicyDraft {
  return { overlap, maxConcurrentRuns: maxConcurrentRuns === null ? '' : String(maxConcurrentRuns) };
}

/** As a merge patch: a blank limit removes it (`null`); anything else is sent as typed, for the service to check. */
export function policyBody({ overlap, maxConcurrentRuns }: RunPolicyDraft) {
  const limit = maxConcurrentRuns.trim();
  return {
    overlap: overlap as Workflow['overlap'],
    maxConcurrentRuns: (limit === '' ? null : /^-?\d+$/.test(limit) ? Number(limit) : limit) as number | null,
  };
}

/** As a create's fields: a blank limit is left out. */
export function createPolicyBody(draft: RunPolicyDraft) {
  const { overlap, maxConcurrentRuns } = policyBody(draft);
  return { overlap, ...(maxConcurrentRuns !== null && { maxConcurrentRuns }) };
}

/** What a tick does while a run is going, and how many runs may go at once. */
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
            onChange={(e) => onChange({ ...policy, overlap: e.currentTarget.value })}
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
    </>
  );
}
