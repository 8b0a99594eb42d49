import type { Agent, Provider } from '../api/schema';
import { FieldProblem, parseCount } from './form-problem';
import { agentToolId } from './agent-tools';
import { GuardrailsDraft, guardrailsBody, guardrailsDraft } from './guardrails-draft';
import { HandoffDraft, handoffsBody, handoffsDraft } from './handoffs-draft';
import { checkObjectSchema } from './json-schema-check';
import { LiveScorerDraft, scorersBody, scorersDraft } from './scorers-draft';

/** An agent as its form holds it: every field the API takes, as typed. */
export interface AgentDraft {
  name: string;
  description: string;
  provider: string;
  modelName: string;
  /** One `provider/model` a line. */
  fallbackModels: string;
  instructions: string;
  /** Built-in and MCP tool ids, and other agents as `agent:<name>` (its own name aside: see `recursive`). */
  tools: string[];
  /** Whether the agent may call itself: `agent:<name>` by the name the form holds, so a rename keeps it. */
  recursive: boolean;
  approvalRequired: string[];
  /** JSON text; blank: free-text answers. */
  outputSchema: string;
  /** The checks of each stage (task, answer, tool results), as the guardrails editor holds them. */
  guardrails: GuardrailsDraft;
  /** The agents it may hand the conversation to, each with what it is sent. */
  handoffs: HandoffDraft[];
  /** The scorers of its succeeded runs, each with the share of runs it scores. */
  scorers: LiveScorerDraft[];
  maxMessages: string;
  /** Blank: no memory namespace (and no recall). */
  memoryNamespace: string;
  /** Blank: no recall. */
  recallLimit: string;
  recallMinScore: string;
  memoryTools: boolean;
  workingMemory: boolean;
  /** Blank: any object. */
  workingSchema: string;
  summarize: boolean;
  maxSteps: string;
}

/**
 * The paths whose messages the agent form shows beside a field, for the problem view to leave to them (the tools'
 * messages stay at the foot of the form, by their paths).
 */
export const AGENT_PATHS = [
  'name',
  'description',
  'model',
  'fallbackModels',
  'instructions',
  'outputSchema',
  'guardrails',
  'handoffs',
  'scorers',
  'memory.maxMessages',
  'memory.namespace',
  'memory.recall',
  'memory.recall.limit',
  'memory.recall.minScore',
  'memory.tools',
  'memory.working',
  'memory.working.schema',
  'memory.summarize',
  'maxSteps',
];

/** A draft of a new agent, or of an existing one to edit. */
export function agentDraft(agent?: Agent): AgentDraft {
  if (!agent) {
    return {
      name: '',
      description: '',
      provider: '',
      modelName: '',
      fallbackModels: '',
      instructions: '',
      tools: [],
      recursive: false,
      approvalRequired: [],
      outputSchema: '',
      guardrails: guardrailsDraft(),
      handoffs: [],
      scorers: [],
      maxMessages: '50',
      memoryNamespace: '',
      recallLimit: '',
      recallMinScore: '',
      memoryTools: false,
      workingMemory: false,
      workingSchema: '',
      summarize: false,
      maxSteps: '10',
    };
  }
  const slash = agent.model.indexOf('/');
  const self = agentToolId(agent.name);
  return {
    name: agent.name,
    description: agent.description,
    provider: agent.model.slice(0, slash),
    modelName: agent.model.slice(slash + 1),
    fallbackModels: agent.fallbackModels.join('\n'),
    instructions: agent.instructions,
    tools: agent.tools.filter((tool) => tool !== self),
    recursive: agent.tools.includes(self),
    approvalRequired: agent.approvalRequired,
    outputSchema: agent.outputSchema ? JSON.stringify(agent.outputSchema, null, 2) : '',
    guardrails: guardrailsDraft(agent.guardrails),
    handoffs: handoffsDraft(agent.handoffs),
    scorers: scorersDraft(agent.scorers),
    maxMessages: String(agent.memory.maxMessages),
    memoryNamespace: agent.memory.namespace ?? '',
    recallLimit: agent.memory.recall ? String(agent.memory.recall.limit) : '',
    recallMinScore: agent.memory.recall?.minScore === undefined ? '' : String(agent.memory.recall.minScore),
    memoryTools: agent.memory.tools ?? false,
    workingMemory: agent.memory.working !== undefined,
    summarize: agent.memory.summarize ?? false,
    workingSchema: agent.memory.working?.schema ? JSON.stringify(agent.memory.working.schema, null, 2) : '',
    maxSteps: String(agent.maxSteps),
  };
}

/** The provider a new agent starts with: a configured one that listed models, else any configured one. */
export function defaultProvider(providers: Provider[]): Provider | undefined {
  return providers.find((p) => p.configured && p.models?.length) ?? providers.find((p) => p.configured) ?? providers[0];
}

const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/\S+$/i;

/**
 * The draft as the API takes it, with what the form can tell is wrong before sending (each problem by the path the
 * service would name; fallback models against `knownProviders`, when the list has come). A blank output schema is
 * `null`: free text.
 */
export function agentBody(draft: AgentDraft, knownProviders?: string[]) {
  const problems: FieldProblem[] = [];
  if (!draft.name.trim()) problems.push({ path: 'name', message: 'name must not be empty' });
  else if (draft.name.length > 200) problems.push({ path: 'name', message: 'name must be at most 200 characters' });
  if (!draft.provider) problems.push({ path: 'model', message: 'choose a provider' });
  else if (!draft.modelName.trim() || /\s/.test(draft.modelName.trim()))
    problems.push({ path: 'model', message: 'model must name a model, e.g. "gpt-4o-mini", without spaces' });
  const fallbackModels = draft.fallbackModels
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  fallbackModels.forEach((model, i) => {
    if (!MODEL_ID.test(model)) {
      problems.push({
        path: `fallbackModels[${i}]`,
        message: `"${model}" is not "provider/model", e.g. "anthropic/claude-3-5-haiku-latest"`,
      });
    } else if (knownProviders && !knownProviders.includes(model.slice(0, model.indexOf('/')))) {
      problems.push({
        path: `fallbackModels[${i}]`,
        message: `"${model}" names no provider the service knows (${knownProviders.join(', ')})`,
      });
    }
  });
  if (fallbackModels.length > 5) problems.push({ path: 'fallbackModels', message: 'at most 5 fallback models' });
  if (new Set(fallbackModels).size < fallbackModels.length) {
    problems.push({ path: 'fallbackModels', message: 'fallbackModels must not repeat a model' });
  }
  const maxSteps = parseCount(draft.maxSteps, 'maxSteps', 1, 100, problems);
  const maxMessages = parseCount(draft.maxMessages, 'memory.maxMessages', 0, 1000, problems);
  let outputSchema: Record<string, unknown> | null = null;
  if (draft.outputSchema.trim()) {
    const check = checkObjectSchema(draft.outputSchema);
    if (check.ok) outputSchema = check.schema;
    else problems.push({ path: 'outputSchema', message: check.message });
  }
  const self = agentToolId(draft.name);
  const tools = draft.recursive && draft.name ? [...draft.tools.filter((tool) => tool !== self), self] : draft.tools;
  const guardrails = guardrailsBody(draft.guardrails, problems);
  const handoffs = handoffsBody(draft.handoffs, draft.name, problems);
  const scorers = scorersBody(draft.scorers, problems);
  const body = {
    name: draft.name,
    description: draft.description,
    model: `${draft.provider}/${draft.modelName.trim()}`,
    fallbackModels,
    instructions: draft.instructions,
    tools,
    approvalRequired: draft.approvalRequired,
    outputSchema,
    guardrails,
    handoffs,
    scorers,
    memory: {
      maxMessages,
      ...memoryOf(draft, problems),
      ...workingOf(draft, problems),
      ...(draft.summarize && { summarize: true }),
    },
    maxSteps,
  };
  return { body, problems };
}

/** The namespace and the recall, when set: a recall needs a namespace, and takes 1 to 20 items. */
function memoryOf(draft: AgentDraft, problems: FieldProblem[]) {
  const namespace = draft.memoryNamespace.trim();
  if (!namespace) return {};
  const tools = draft.memoryTools && { tools: true };
  if (!draft.recallLimit.trim()) return { namespace, ...tools };
  const limit = parseCount(draft.recallLimit, 'memory.recall.limit', 1, 20, problems);
  const score = draft.recallMinScore.trim();
  const minScore = score === '' ? undefined : Number(score);
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1000)) {
    problems.push({
      path: 'memory.recall.minScore',
      message: 'memory.recall.minScore must be a number from 0 to 1000',
    });
  }
  return { namespace, recall: { limit, ...(minScore !== undefined && { minScore }) }, ...tools };
}

/** The working memory, when chosen, with its schema when one is typed. */
function workingOf(draft: AgentDraft, problems: FieldProblem[]) {
  if (!draft.workingMemory) return {};
  if (!draft.workingSchema.trim()) return { working: {} };
  const check = checkObjectSchema(draft.workingSchema);
  if (check.ok) return { working: { schema: check.schema } };
  problems.push({ path: 'memory.working.schema', message: check.message });
  return { working: {} };
}
