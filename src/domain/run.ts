/** What agent runs and workflow runs have in common. */

/** `waiting`: for a person's decision (an approval); it holds no slot and nothing in memory meanwhile. */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

export const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'];

export function isEnded(status: RunStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

/** Why a run failed: a stable `code` (e.g. `provider_error`, `timeout`, `interrupted`), and for provider errors the provider's HTTP status. */
export interface RunError {
  code: string;
  message: string;
  status?: number;
  /** Where and why, for errors about a value (`output_invalid`: the answer against its schema). */
  errors?: Array<{ path: string; message: string }>;
}

/**
 * Where a run was asked for when not through the HTTP API: an MCP client's session, an A2A conversation (its
 * `contextId`), or a judge scorer (the run scores an answer, and is never scored itself). Absent (null) for a run
 * asked for over HTTP, by the console, a schedule or another run.
 */
export type RunSource =
  | { protocol: 'mcp'; sessionId: string }
  | { protocol: 'a2a'; contextId: string }
  | { protocol: 'scorer'; scorerId: string };

/** The latest run of an agent or a workflow, as lists show it beside `lastRun`. */
export interface LatestRun {
  id: string;
  status: RunStatus;
  /** When it was queued. */
  at: string;
}

/** The order of a run list: by id, which grows with the time a run was queued. */
export type RunOrder = 'asc' | 'desc';

export const RUN_ORDERS: readonly RunOrder[] = ['asc', 'desc'];

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** What the tokens cost in US dollars, when the run's model has a price (`MODEL_PRICES_FILE`). */
  costUsd?: number;
}

/**
 * The usages added up: null when there is none. The sum has `costUsd` when every part that used tokens had a price.
 */
export function addUsage(parts: ReadonlyArray<Usage | null>): Usage | null {
  const given = parts.filter((part): part is Usage => part !== null);
  if (!given.length) return null;
  const sum: Usage = { inputTokens: 0, outputTokens: 0 };
  let cost = 0;
  let unpriced = false;
  for (const part of given) {
    sum.inputTokens += part.inputTokens;
    sum.outputTokens += part.outputTokens;
    if (part.costUsd !== undefined) cost += part.costUsd;
    else if (part.inputTokens + part.outputTokens > 0) unpriced = true;
  }
  if (!unpriced && given.some((part) => part.costUsd !== undefined)) sum.costUsd = Math.round(cost * 1e8) / 1e8;
  return sum;
}

/**
 * A model an agent run called: the tokens its calls reported (priced at that model, when it has a price), and, when
 * it was left for the next of the agent's `fallbackModels` or the run failed on it, why.
 */
export interface ModelAttempt {
  model: string;
  usage: Usage;
  error?: RunError;
}
