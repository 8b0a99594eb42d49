/**
 * An agent's `scorers`: the scorers its succeeded runs are scored by after they end, each on a share of the runs
 * (`sampling`, from 0 to 1). A run is sampled for a scorer by a hash of the run's id and the scorer's name, so every
 * instance, and every reading of the log again, decides the same.
 */
export interface LiveScorer {
  /** An active scorer's name. */
  scorer: string;
  sampling: number;
}

/** At most this many scorers per agent. */
export const MAX_LIVE_SCORERS = 10;
