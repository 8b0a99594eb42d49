import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { href, navigate } from '../router';
import { CronField } from './cron-field';

interface StepDraft {
  agent: string;
  action: string;
}

export function WorkflowCreatePage() {
  const [name, setName] = useState('');
  const [scheduled, setScheduled] = useState(false);
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [steps, setSteps] = useState<StepDraft[]>([{ agent: '', action: '' }]);
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  const updateStep = (index: number, change: Partial<StepDraft>) =>
    setSteps(steps.map((s, i) => (i === index ? { ...s, ...change } : s)));

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const trigger = scheduled
        ? { type: 'schedule' as const, cron, timezone: timezone.trim() || 'UTC' }
        : { type: 'manual' as const };
      const workflow = unwrap(await api.POST('/v1/workflows', { body: { name, trigger, steps } }));
      navigate('workflows', workflow.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  const stepPaths = steps.flatMap((_, i) => [`steps[${i}].agent`, `steps[${i}].action`]);
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
        <fieldset>
          <legend>Steps</legend>
          <p class="hint">
            Each step runs an agent (by name). In the action, <code>{'{{input.topic}}'}</code> is the run's input and{' '}
            <code>{'{{steps.0.output}}'}</code> an earlier step's output.
          </p>
          <ol class="steps">
            {steps.map((step, i) => (
              <li key={i} class="card">
                <Field id={`step-${i}-agent`} label={`Step ${i + 1} agent`} path={`steps[${i}].agent`} error={error}>
                  {(describedBy, invalid) => (
                    <input
                      id={`step-${i}-agent`}
                      value={step.agent}
                      onInput={(e) => updateStep(i, { agent: e.currentTarget.value })}
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                    />
                  )}
                </Field>
                <Field id={`step-${i}-action`} label={`Step ${i + 1} action`} path={`steps[${i}].action`} error={error}>
                  {(describedBy, invalid) => (
                    <textarea
                      id={`step-${i}-action`}
                      rows={2}
                      value={step.action}
                      onInput={(e) => updateStep(i, { action: e.currentTarget.value })}
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                    />
                  )}
                </Field>
                {steps.length > 1 && (
                  <button type="button" class="secondary" onClick={() => setSteps(steps.filter((_, j) => j !== i))}>
                    Remove step {i + 1}
                  </button>
                )}
              </li>
            ))}
          </ol>
          <button type="button" class="secondary" onClick={() => setSteps([...steps, { agent: '', action: '' }])}>
            Add step
          </button>
        </fieldset>
        <ProblemView error={error} shownPaths={['name', 'trigger.cron', 'trigger.timezone', ...stepPaths]} />
        <button type="submit" disabled={busy}>
          Create workflow
        </button>
      </form>
    </main>
  );
}
