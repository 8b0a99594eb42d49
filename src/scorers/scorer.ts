import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/** How a scorer judges an answer: by code (the first four) or by asking an agent (`judge`). */
export const SCORER_TYPES = ['exact', 'contains', 'json_schema', 'rule', 'judge'] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

/**
 * What a scorer of each type holds besides its name: `exact` and `contains` compare the output with the answer
 * expected (`caseSensitive`, default false); `json_schema` checks the output against `schema`; `rule` is a JSON
 * Logic rule over the answer and its run; `judge` asks the agent named `agent` with `rubric`.
 */
export type ScorerDefinition =
  | { type: 'exact' | 'contains'; caseSensitive: boolean }
  | { type: 'json_schema'; schema: Record<string, unknown> }
  | { type: 'rule'; rule: Record<string, unknown> | boolean }
  | { type: 'judge'; agent: string; rubric: string };

export type Scorer = ScorerDefinition & {
  id: string;
  name: string;
  description: string;
  status: 'active' | 'archived';
  createdAt: string;
  archivedAt: string | null;
};

/** A score: 0 (worst) to 1 (best), with why when the scorer says. */
export interface Score {
  scorer: string;
  score: number;
  reason?: string;
}

export type ScorerState = Scorer | null;

export type CreateScorer = {
  type: 'CreateScorer';
  id: string;
  name: string;
  description: string;
  definition: ScorerDefinition;
};
export type ArchiveScorer = { type: 'ArchiveScorer'; scorerId: string };
export type ScorerCommand = CreateScorer | ArchiveScorer;

export type ScorerCreated = DomainEvent<
  'ScorerCreated',
  { id: string; name: string; description: string; definition: ScorerDefinition; createdAt: string }
>;
export type ScorerArchived = DomainEvent<'ScorerArchived', { scorerId: string; name: string; archivedAt: string }>;
export type ScorerEvent = ScorerCreated | ScorerArchived;

export const SCORER_EVENT_TYPES = eventTypes<ScorerEvent>({ ScorerCreated: true, ScorerArchived: true });

export const scorerStream = (scorerId: string) => `scorer-${scorerId}`;

/** A scorer is defined once: to change one, archive it and create another (its scores stay tied to it). */
export const scorerDecider: Decider<ScorerState, ScorerCommand, ScorerEvent> = {
  initialState: null,
  cacheActors: false,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'CreateScorer') {
      if (state) throw new DomainError('conflict', `Scorer ${command.id} already exists`);
      const { id, name, description, definition } = command;
      return [{ type: 'ScorerCreated', data: { id, name, description, definition, createdAt: at } }];
    }
    if (!state) throw new DomainError('not_found', `Scorer ${command.scorerId} does not exist`);
    if (state.status === 'archived') return [];
    return [{ type: 'ScorerArchived', data: { scorerId: state.id, name: state.name, archivedAt: at } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ScorerCreated': {
        const { id, name, description, definition, createdAt } = event.data;
        return { ...definition, id, name, description, status: 'active', createdAt, archivedAt: null };
      }
      case 'ScorerArchived':
        return state && { ...state, status: 'archived', archivedAt: event.data.archivedAt };
      default:
        return state;
    }
  },
};
