import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';
import { Preconditions, checkBaseVersion, checkIfMatch } from '../domain/definition';
import type { Guardrails } from './guardrails';
import type { HandoffSpec } from './handoffs';
import type { LiveScorer } from './live-scorers';

export type AgentStatus = 'active' | 'archived';
export const AGENT_STATUSES: AgentStatus[] = ['active', 'archived'];

export interface Agent {
  id: string;
  name: string;
  status: AgentStatus;
  model: string;
  /** What the agent is for, in a sentence or two, for people and for other agents choosing it; "" when not given. */
  description: string;
  instructions: string;
  tools: string[];
  /** Upper bound on the model's steps (calls) in one run. */
  maxSteps: number;
  /** The JSON Schema the final answer must match (`outputObject`); null: free text. */
  outputSchema: Record<string, unknown> | null;
  /** How much of a thread a run sees: its last `maxMessages` messages. */
  memory: AgentMemory;
  /** Tool ids, or `mcp:<server>/*`, whose calls wait for a person's approval. */
  approvalRequired: string[];
  /** `provider/model`s a model call is made again on, in order, when it fails by the provider's fault. */
  fallbackModels: string[];
  /** Checks on the task, the answer and each tool's result; `{}`: none. */
  guardrails: Guardrails;
  /** Agents it may hand the conversation to (`transfer_to_<name>` tools): names, or `{agent, input}`. */
  handoffs: HandoffSpec[];
  /** The scorers its succeeded runs are scored by after they end, each on a share of them; [] when none. */
  scorers: LiveScorer[];
  /** Counts the agent's changes: 1 when created, +1 for each update that changes something and for its archiving. */
  version: number;
  createdAt: string;
}

/** What an update may change. */
export type AgentDefinition = Pick<Agent, 'name' | 'model' | 'instructions' | 'tools' | 'maxSteps' | OptionalField>;

/** The definition's fields of `from` (an agent, a create's body), as plain values. */
export function pickDefinition(from: AgentDefinition): AgentDefinition {
  const { name, model, description, instructions, tools, maxSteps, outputSchema } = from;
  const { approvalRequired, fallbackModels, guardrails, handoffs, scorers } = from;
  const { maxMessages, namespace, recall, tools: memoryTools, working, summarize } = from.memory;
  // Plain values (a create's body holds class instances), without the fields left out.
  const recalling = recall && {
    limit: recall.limit,
    ...(recall.minScore !== undefined && { minScore: recall.minScore }),
  };
  const memory = {
    maxMessages,
    ...(namespace !== undefined && { namespace }),
    ...(memoryTools && { tools: true }),
    ...(working && { working: working.schema ? { schema: working.schema } : {} }),
    ...(summarize && { summarize: true }),
    ...(recalling && { recall: recalling }),
  };
  return {
    name,
    model,
    description,
    instructions,
    tools,
    maxSteps,
    outputSchema,
    memory,
    approvalRequired,
    fallbackModels,
    guardrails,
    handoffs,
    scorers,
  };
}

/** The fields added after the first agents were made: a create may leave them out, and older events lack them. */
type OptionalField =
  | 'description'
  | 'outputSchema'
  | 'memory'
  | 'approvalRequired'
  | 'fallbackModels'
  | 'guardrails'
  | 'handoffs'
  | 'scorers';

/** Whether a call of the tool `toolId` needs a person's approval under `rules` (ids, or `mcp:<server>/*`). */
export function needsApproval(rules: string[], toolId: string): boolean {
  return rules.some((rule) => (rule.endsWith('/*') ? toolId.startsWith(rule.slice(0, -1)) : rule === toolId));
}

export interface AgentMemory {
  maxMessages: number;
  /** The memory namespace of its runs: a template over the run's context (`users/{{context.userId}}`). */
  namespace?: string;
  /** Before each run, the items of the namespace that best match the task are given to the model. */
  recall?: { limit: number; minScore?: number };
  /** The model gets `remember`, `recall` and `forget` on the namespace. */
  tools?: boolean;
  /** On a thread: one JSON document (valid against `schema`, when given) the model sees and updates each turn. */
  working?: { schema?: Record<string, unknown> };
  /** On a thread: the messages that fall out of the window are folded into a running summary the model sees. */
  summarize?: boolean;
}

export const DEFAULT_MEMORY: AgentMemory = { maxMessages: 50 };

const isDefaultMemory = ({ maxMessages, namespace, recall, tools, working, summarize }: AgentMemory) =>
  maxMessages === DEFAULT_MEMORY.maxMessages && namespace === undefined && !recall && !tools && !working && !summarize;

export const DEFAULT_MAX_STEPS = 10;

export type AgentState = Agent | null;

export type CreateAgent = { type: 'CreateAgent' } & Omit<Agent, 'status' | 'createdAt' | 'version' | OptionalField> &
  Partial<Pick<Agent, OptionalField>>;
/** `changes` were merged onto version `baseVersion`; the fields that do not change are left out. */
export type UpdateAgent = {
  type: 'UpdateAgent';
  agentId: string;
  changes: Partial<AgentDefinition>;
  baseVersion: number;
} & Preconditions;
export type ArchiveAgent = { type: 'ArchiveAgent'; agentId: string } & Preconditions;
export type AgentCommand = CreateAgent | UpdateAgent | ArchiveAgent;

/** Agents created before runs were executed have no `maxSteps`, and older ones no `outputSchema`: defaults. */
export type AgentCreated = DomainEvent<
  'AgentCreated',
  Omit<Agent, 'status' | 'maxSteps' | 'version' | OptionalField> & {
    maxSteps?: number;
    outputSchema?: Record<string, unknown> | null;
    memory?: AgentMemory;
    approvalRequired?: string[];
    fallbackModels?: string[];
    guardrails?: Guardrails;
    handoffs?: HandoffSpec[];
    scorers?: LiveScorer[];
    description?: string;
  }
>;
/** Only the changed fields, with their new values; `version` is the agent's version after the change. */
export type AgentUpdated = DomainEvent<
  'AgentUpdated',
  { agentId: string; changes: Partial<AgentDefinition>; version: number; updatedAt: string }
>;
export type AgentArchived = DomainEvent<
  'AgentArchived',
  { agentId: string; name: string; version: number; archivedAt: string }
>;
export type AgentEvent = AgentCreated | AgentUpdated | AgentArchived;

export const AGENT_EVENT_TYPES = eventTypes<AgentEvent>({
  AgentCreated: true,
  AgentUpdated: true,
  AgentArchived: true,
});

export const agentStream = (agentId: string) => `agent-${agentId}`;

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  initialState: null,
  // An agent's stream holds its creation and its few changes: one read rebuilds it.
  cacheActors: false,

  decide(state, command, now) {
    if (command.type === 'CreateAgent') {
      if (state) throw new DomainError('conflict', `Agent ${command.id} already exists`);
      const {
        type: _type,
        outputSchema,
        memory,
        approvalRequired,
        fallbackModels,
        guardrails,
        handoffs,
        scorers,
        description,
        ...agent
      } = command;
      // Onto the object the rest gave, not into a spread of it (see `withDefaults`).
      const data = Object.assign(agent, {
        ...(outputSchema && { outputSchema }),
        ...(memory && !isDefaultMemory(memory) && { memory }),
        ...(approvalRequired?.length && { approvalRequired }),
        ...(description && { description }),
        ...(fallbackModels?.length && { fallbackModels }),
        ...(guardrails && Object.keys(guardrails).length && { guardrails }),
        ...(handoffs?.length && { handoffs }),
        ...(scorers?.length && { scorers }),
        createdAt: now.toISOString(),
      });
      return [{ type: 'AgentCreated', data }];
    }
    const { agentId } = command;
    if (!state) throw new DomainError('not_found', `Agent ${agentId} does not exist`);
    switch (command.type) {
      case 'UpdateAgent': {
        checkIfMatch('Agent', agentId, state, command);
        if (state.status === 'archived') throw new DomainError('conflict', `Agent ${agentId} is archived`);
        checkBaseVersion('Agent', agentId, state, command.baseVersion);
        if (Object.keys(command.changes).length === 0) return [];
        const data = { agentId, changes: command.changes, version: state.version + 1, updatedAt: now.toISOString() };
        return [{ type: 'AgentUpdated', data }];
      }
      case 'ArchiveAgent':
        // Archiving again changes nothing, whatever version the client last saw.
        if (state.status === 'archived') return [];
        checkIfMatch('Agent', agentId, state, command);
        return [
          {
            type: 'AgentArchived',
            data: { agentId, name: state.name, version: state.version + 1, archivedAt: now.toISOString() },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AgentCreated': {
        // Fields an older event lacks take their defaults.
        const { maxSteps, ...created } = event.data;
        const agent = Object.assign(created, { status: 'active', maxSteps: maxSteps ?? DEFAULT_MAX_STEPS, version: 1 });
        return withDefaults(agent as Agent);
      }
      case 'AgentUpdated':
        return state && { ...withDefaults(state), ...event.data.changes, version: event.data.version };
      case 'AgentArchived':
        return state && { ...state, status: 'archived', version: event.data.version };
      default:
        return state;
    }
  },
};

/**
 * An agent as stored before a field existed gets that field's default. Built with Object.assign, not as
 * `{ ...agent, field }`: Node 20's V8 adds each field an object literal names after a spread slowly (about 1 µs
 * a field, several per agent created), and assigning them is as fast as the spread alone.
 */
export function withDefaults(agent: Agent): Agent {
  return Object.assign({}, agent, {
    outputSchema: agent.outputSchema ?? null,
    memory: agent.memory ?? DEFAULT_MEMORY,
    approvalRequired: agent.approvalRequired ?? [],
    fallbackModels: agent.fallbackModels ?? [],
    guardrails: agent.guardrails ?? {},
    handoffs: agent.handoffs ?? [],
    scorers: agent.scorers ?? [],
    description: agent.description ?? '',
  });
}
