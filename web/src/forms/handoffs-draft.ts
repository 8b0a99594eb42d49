import type { Agent } from '../api/schema';
import type { FieldProblem } from './form-problem';

/** What the agent handed to is sent of the conversation so far. */
export type HandoffInput = 'all' | 'last_user' | 'summary';

export const HANDOFF_INPUT_LABELS: Record<HandoffInput, string> = {
  all: 'whole conversation',
  last_user: 'last user message',
  summary: 'summary',
};

/** One agent the conversation may be handed to, with what it is sent. */
export interface HandoffDraft {
  agent: string;
  input: HandoffInput;
}

/** At most this many handoffs per agent, as the service allows. */
export const MAX_HANDOFFS = 10;

/** An agent's handoffs as the form holds them: a bare name is `{agent: name, input: "all"}`. */
export function handoffsDraft(handoffs: Agent['handoffs']): HandoffDraft[] {
  return handoffs.map((entry) =>
    typeof entry === 'string' ? { agent: entry, input: 'all' } : { agent: entry.agent, input: entry.input ?? 'all' },
  );
}

/**
 * The handoffs as the API takes them: a name alone when the whole conversation is sent (the default), else
 * `{agent, input}`. Too many, or the agent's own name, is a problem by the path the service would name.
 */
export function handoffsBody(handoffs: HandoffDraft[], selfName: string, problems: FieldProblem[]) {
  if (handoffs.length > MAX_HANDOFFS) {
    problems.push({ path: 'handoffs', message: `handoffs may name at most ${MAX_HANDOFFS} agents` });
  }
  handoffs.forEach((handoff, i) => {
    if (handoff.agent === selfName) {
      problems.push({ path: `handoffs[${i}].agent`, message: 'an agent cannot hand off to itself' });
    }
  });
  return handoffs.map((handoff) =>
    handoff.input === 'all' ? handoff.agent : { agent: handoff.agent, input: handoff.input },
  );
}
