import { formatJson } from '../format';
import { href } from '../router';

interface Props {
  experimentId?: string | null;
  trial?: { overrides: Record<string, unknown> | null; recordedFrom: string | null } | null;
  /** The page of the run whose tool results the trial gave back. */
  recordedHref: (runId: string) => string;
}

/** A run of an experiment's item: the experiment, the change it tried, and the run whose tool results it got back. */
export function TrialFacts({ experimentId, trial, recordedHref }: Props) {
  if (!experimentId) return null;
  return (
    <>
      <dt>Experiment</dt>
      <dd data-testid="run-experiment">
        <a href={href('experiments', experimentId)}>{experimentId}</a>
      </dd>
      {trial?.overrides && (
        <>
          <dt>Tried with</dt>
          <dd>
            <pre>{formatJson(trial.overrides)}</pre>
          </dd>
        </>
      )}
      {trial?.recordedFrom && (
        <>
          <dt>Tool results of</dt>
          <dd data-testid="run-recorded-from">
            <a href={recordedHref(trial.recordedFrom)}>{trial.recordedFrom}</a>
          </dd>
        </>
      )}
    </>
  );
}
