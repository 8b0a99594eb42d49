import type { Agent } from '../api/schema';
import type { FieldProblem } from './form-problem';

/** One scorer of the agent's live runs, with the share of runs it scores as typed (0 to 1). */
export interface LiveScorerDraft {
  scorer: string;
  sampling: string;
}

/** At most this many scorers per agent, as the service allows. */
export const MAX_LIVE_SCORERS = 10;

export function scorersDraft(scorers: Agent['scorers']): LiveScorerDraft[] {
  return scorers.map(({ scorer, sampling }) => ({ scorer, sampling: String(sampling) }));
}

/** The scorers as the API takes them; a share that is not a number from 0 to 1 is a problem by its path. */
export function scorersBody(scorers: LiveScorerDraft[], problems: FieldProblem[]) {
  if (scorers.length > MAX_LIVE_SCORERS) {
    problems.push({ path: 'scorers', message: `at most ${MAX_LIVE_SCORERS} scorers` });
  }
  return scorers.map(({ scorer, sampling }, i) => {
    const share = Number(sampling.trim());
    if (sampling.trim() === '' || !(share >= 0 && share <= 1)) {
      problems.push({ path: `scorers[${i}].sampling`, message: 'sampling must be a number from 0 to 1' });
    }
    return { scorer, sampling: share };
  });
}
