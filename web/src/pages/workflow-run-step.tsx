import type { WorkflowRun } from '../api/schema';
import { StatusBadge } from '../components/status-badge';
import { formatDuration, formatJson, formatTime } from '../format';
import { stepTitle, waitingText } from '../components/step-title';
import { MapItems } from '../components/map-items';
import { href } from '../router';
import type { GraphStep } from '../graph/workflow-graph';

export type RunStep = WorkflowRun['steps'][number];

/** Why a skipped step did not run, in words. */
const SKIP_REASONS: Record<NonNullable<RunStep['skipReason']>, string> = {
  condition_false: 'its condition (when) was false',
  needs_skipped: 'every step it needs was skipped',
};

/** A run's step as its graph node shows it: its status, and how many attempts and how long, once it has started. */
export function graphStepOf(step: RunStep): GraphStep {
  const attempts = step.attempts?.length ?? 0;
  const detail = [
    step.items ? `${step.items.filter((item) => item.status === 'succeeded').length}/${step.items.length} items` : '',
    attempts > 1 ? `${attempts} ${step.repeat ? 'iterations' : 'attempts'}` : '',
    step.startedAt ? formatDuration(step.startedAt, step.endedAt) : '',
  ].filter(Boolean);
  return {
    id: step.id,
    needs: step.needs,
    title: stepTitle(step),
    status: step.status,
    detail: detail.join(' · ') || undefined,
  };
}

interface RunStepCardProps {
  step: RunStep;
  /** Whether the run has ended, so that it can be replayed from this step. */
  ended: boolean;
  /** Chosen on the graph: the card is marked, and its task shown. */
  selected: boolean;
  onReplay: (stepId: string) => void;
}

/** One step of a run: what it was sent, what it answered, its agent run, its attempts, and replay from here. */
export function RunStepCard({ step, ended, selected, onReplay }: RunStepCardProps) {
  return (
    <li
      id={`step-${step.id}`}
      tabIndex={-1}
      class={`timeline-step step-${step.status}${selected ? ' selected' : ''}`}
      data-step-id={step.id}
    >
      <div class="page-head">
        <strong>
          Step {step.id === String(step.index) ? step.index : `${step.index} “${step.id}”`}:{' '}
          {step.agent ?? capitalized(stepTitle(step))}
        </strong>
        <StatusBadge status={step.status} />
        {step.reused && <span class="muted">reused</span>}
        <span class="muted">{formatDuration(step.startedAt, step.endedAt)}</span>
        {step.agentRunId && <a href={href('agent-runs', step.agentRunId)}>agent run</a>}
      </div>
      {step.needs.length > 0 && <p class="muted">needs {step.needs.join(', ')}</p>}
      {step.skipReason && (
        <p class="muted" data-testid="skip-reason">
          Skipped: {SKIP_REASONS[step.skipReason]}
        </p>
      )}
      {step.missing && (
        <p class="field-error" data-testid="missing-paths">
          Led nowhere, left empty in the task: <code>{step.missing.map((path) => `{{${path}}}`).join(', ')}</code>
        </p>
      )}
      {step.repeat && step.attempts && <Iterations attempts={step.attempts} />}
      {!step.repeat && (step.attempts?.length ?? 0) > 1 && (
        <p class="muted">
          {step.attempts!.length} attempts:{' '}
          {step.attempts!.map((attempt) => attempt.error?.code ?? attempt.status).join(', ')}
        </p>
      )}
      {ended && (
        <button type="button" class="secondary" onClick={() => onReplay(step.id)}>
          Replay from here<span class="visually-hidden"> (step {step.id})</span>
        </button>
      )}
      <WaitingFor step={step} />
      {step.map && (
        <p class="muted">
          Once per item of <code>{step.map.over}</code>, {step.map.concurrency ?? 1} at once; a failed item{' '}
          {step.onItemError === 'skip' ? 'is skipped' : 'fails the step'}.
        </p>
      )}
      {step.items && <MapItems items={step.items} />}
      {step.workflow && (
        <p class="muted" data-testid="child-run">
          Runs the workflow {step.workflow}
          {step.childRunId && (
            <>
              : <a href={href('workflow-runs', step.childRunId)}>child run {step.childRunId}</a>
            </>
          )}
          {step.sentInput && <> with the input {formatJson(step.sentInput)}</>}
        </p>
      )}
      {step.task !== null ? (
        <details class="sent-task" open={selected || undefined}>
          <summary>Task sent</summary>
          <pre>{step.task}</pre>
        </details>
      ) : (
        <p class="muted">{step.action ?? step.approval ?? waitingText(step)}</p>
      )}
      {(step.outputObject || step.output) && (
        <>
          <h3 class="block-label">Output of step {step.id}</h3>
          <pre class="output">{step.outputObject ? formatJson(step.outputObject) : step.output}</pre>
        </>
      )}
      {step.error && (
        <p class="field-error">
          {step.error.code}: {step.error.message}
        </p>
      )}
    </li>
  );
}

/** A repeating step's iterations, each with how it ended and its answer. */
function Iterations({ attempts }: { attempts: NonNullable<RunStep['attempts']> }) {
  return (
    <details class="map-items">
      <summary data-testid="iterations">
        {attempts.length} {attempts.length === 1 ? 'iteration' : 'iterations'}
      </summary>
      <ol>
        {attempts.map((attempt) => (
          <li key={attempt.runId} data-testid="iteration">
            <StatusBadge status={attempt.status} /> <a href={href('agent-runs', attempt.runId)}>agent run</a>{' '}
            {attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : (attempt.output ?? '')}
          </li>
        ))}
      </ol>
    </details>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What a wait or sleep step waits for while it waits, and what ended it. */
function WaitingFor({ step }: { step: RunStep }) {
  const { awaiting, wakeAt } = step;
  if (awaiting) {
    const key = awaiting.key === null ? 'any key' : `the key ${awaiting.key}`;
    const until = awaiting.timeoutAt ? `, until ${formatTime(awaiting.timeoutAt)}` : '';
    const again = awaiting.attempt ? ` (wait ${awaiting.attempt}, after a time-out)` : '';
    return (
      <p class="muted" data-testid="waiting-for">
        {awaiting.signalId
          ? `Ended by the signal ${awaiting.signalId} (${awaiting.signal}, ${key}).`
          : `Waits for the signal ${awaiting.signal} with ${key}${until}${again}.`}
      </p>
    );
  }
  if (!wakeAt) return null;
  return (
    <p class="muted" data-testid="waiting-for">
      {step.status === 'waiting' ? `Sleeps until ${formatTime(wakeAt)}.` : `Slept until ${formatTime(wakeAt)}.`}
    </p>
  );
}
