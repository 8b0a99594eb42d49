import type { EndAgentRun } from '../../agents/agent-run/agent-run.commands';
import { RunError } from '../../domain/run';
import { ModelRunError } from '../../models/model-run-error';
import { OutputInvalid } from '../agent-loop/structured-answer';
import { GuardrailBlocked } from '../guardrails/run-guardrails';

/** Why a run's signal fired. */
export class RunCancelled extends Error {}
export class RunTimedOut extends Error {}
/** The service is stopping. */
export class RunInterrupted extends Error {}
/** The run was ended by someone else (e.g. declared interrupted): this instance stops without recording. */
export class RunTakenAway extends Error {}

/** The agent a handoff named is gone (archived since the run began). */
export class HandoffFailed extends Error {
  constructor(readonly agent: string) {
    super(`The agent "${agent}" the run was handed to is archived or gone`);
  }
}

/**
 * How a run that threw ends: by why its signal fired (`reason`), else by the error. An error no one expected is
 * told to `unexpected`, and fails the run with `internal_error`.
 */
export function outcomeOf(
  error: unknown,
  reason: unknown,
  timeoutMs: number,
  unexpected: (message: string) => void,
): EndAgentRun['outcome'] {
  if (reason instanceof RunCancelled) return { cancelled: true };
  if (reason instanceof RunInterrupted) {
    return { error: { code: 'interrupted', message: 'The service stopped while the run was executing' } };
  }
  if (reason instanceof RunTimedOut) {
    return { error: { code: 'timeout', message: `The run did not end within ${timeoutMs} ms` } };
  }
  if (error instanceof HandoffFailed) return { error: { code: 'agent_not_found', message: error.message } };
  if (error instanceof GuardrailBlocked) return { error: { code: 'guardrail_blocked', message: error.message } };
  if (error instanceof ModelRunError) {
    const runError: RunError = { code: error.code, message: error.message };
    if (error.status !== undefined) runError.status = error.status;
    if (error instanceof OutputInvalid) runError.errors = error.errors;
    return { error: runError };
  }
  unexpected(String(error));
  return { error: { code: 'internal_error', message: error instanceof Error ? error.message : String(error) } };
}
