import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { Field } from '../components/field';
import { StepDraft, StepsEditor, stepPaths, stepsBody } from './steps-editor';
import { ProblemView } from '../components/problem-view';
import { href, navigate } from '../router';
import { CronField } from './cron-field';
import { POLICY_PATHS, RunPolicyDraft, RunPolicyFields, createPolicyBody } from './run-policy-fields';
import { INPUT_SCHEMA_PATHS, InputSchemaField, inputSchemaBody } from './input-schema-field';

export function WorkflowCreatePage() {
  const [name, setName] = useState('');
  const [scheduled, setScheduled] = useState(false);
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [steps, setSteps] = useState<StepDraft[]>([{ agent: '', action: '' }]);
  const [policy, setPolicy] = useState<RunPolicyDraft>({ overlap: 'allow', maxConcurrentRuns: '' });
  const [inputSchema, setInputSchema] = useState('');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const trigger = scheduled
        ? { type: 'schedule' as const, cron, timezone: timezone.trim() || 'UTC' }
        : { type: 'manual' as const };
      const schema = inputSchemaBody(inputSchema);
      const body = {
        name,
        trigger,
        steps: stepsBody(steps),
        ...(schema !== null && { inputSchema: schema }),
        ...createPolicyBody(policy),
      };
      const workflow = unwrap(await api.POST('/v1/workflows', { body }));
      navigate('workflows', workflow.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main>
      <p>
        <a href={href('workflows')}>← Workflows</a>
      </p>
      <h1>New workflow</h1>
      <form onSubmit={submit} noValidate>
        <Field id="wf-name" label="Name" path="name" error={error}>
          {(describedBy, invalid) => (
            <input
              id="wf-name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <fieldset>
          <legend>Trigger</legend>
          <label class="checkbox">
            <input type="radio" name="trigger" checked={!scheduled} onChange={() => setScheduled(false)} /> By hand
          </label>
          <label class="checkbox">
            <input type="radio" name="trigger" checked={scheduled} onChange={() => setScheduled(true)} /> On a schedule
          </label>
          {scheduled && (
            <CronField cron={cron} timezone={timezone} onCron={setCron} onTimezone={setTimezone} error={error} />
          )}
        </fieldset>
        <InputSchemaField id="wf-input-schema" text={inputSchema} onChange={setInputSchema} error={error} />
        <StepsEditor steps={steps} onChange={setSteps} error={error} />
        <RunPolicyFields policy={policy} onChange={setPolicy} error={error} />
        <ProblemView
          error={error}
          shownPaths={[
            'name',
            'trigger.cron',
            'trigger.timezone',
            ...INPUT_SCHEMA_PATHS,
            ...stepPaths(steps),
            ...POLICY_PATHS,
          ]}
        />
        <button type="submit" disabled={busy}>
          Create workflow
        </button>
      </form>
    </main>
  );
}
